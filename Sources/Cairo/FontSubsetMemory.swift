import CCairo

/// Makes cairo's subsetting of a CJK font for a PDF cheaper in page faults, once per process.
///
/// cairo 1.16 copies a font's whole CFF table to subset it: about 16 MB for each face of Noto Sans
/// CJK (Regular and Bold), whatever the text. glibc hands such blocks out as fresh mappings, so every
/// 4 KiB page is faulted in, and freed blocks go back to the system: the second face pays again. On
/// the reference machine (a Firecracker VM, where a page fault is expensive) that was most of the
/// extra time of a Korean or Japanese report (9,440 page faults to subset one face, against 680 for
/// DejaVu Sans).
///
/// So, before the first CJK PDF text: large blocks come from the heap and stay there once freed (the
/// second face reuses the first one's memory), and a 48 MB stretch of heap is marked for transparent
/// huge pages (2 MiB pages fault in 512 times fewer). The process is a short-lived command, so keeping
/// the memory until it exits costs nothing; nothing is done for English documents or images.
public enum FontSubsetMemory {
    private static let prepared: Bool = {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
        let size = 48 << 20, huge = 2 << 20
        guard let block = malloc(size) else { return false }
        let start = (Int(bitPattern: block) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: block) + size) & ~(huge - 1)
        if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        }
        free(block)
        return true
    }()

    /// Sets the allocator up (the first call only).
    public static func prepare() { _ = prepared }
}
