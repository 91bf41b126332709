"""Image helpers both receipt generators use (scripts/make-receipts.py, the project's set; scripts/receipt-gen.py,
receipts petlog has never seen): the perspective warp's coefficients and a JPEG's EXIF orientation block."""


def solve(a, b):
    """x with a·x = b by Gaussian elimination with partial pivoting (8×8 here; no numpy on the system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective_coefficients(dst, src):
    """PIL's PERSPECTIVE data mapping output points `dst` to input points `src` (four each)."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return solve(a, b)


def orientation_exif(value):
    """A minimal little-endian EXIF block whose only tag is Orientation."""
    tiff = b"II*\x00" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little")
    tiff += (0x0112).to_bytes(2, "little") + (3).to_bytes(2, "little") + (1).to_bytes(4, "little")
    tiff += value.to_bytes(2, "little") + b"\x00\x00" + (0).to_bytes(4, "little")
    return b"Exif\x00\x00" + tiff
