import Foundation
import PetCharts
import PetReport

/// Deterministic documents for the tests.
enum ReportFixtures {
    static func document(_ blocks: [ReportBlock], language: String = "en", paper: Paper = .a4) -> ReportDocument {
        ReportDocument(title: "Test report", language: language, paper: paper,
                       headerLeft: "Coco — vet visit report", headerRight: "Generated 2026-11-23",
                       footerNote: "Owner-recorded data — not a medical record",
                       pageLabel: { "Page \($0) of \($1)" }, blocks: blocks, creationDate: "2026-11-23T00:00:00Z")
    }

    static func weightSpec(points: Int = 120) -> WeightChartSpec {
        let start = 1_767_225_600.0   // 2026-01-01 UTC
        let times = (0..<points).map { start + Double($0) * 86400 * 2 }
        let values = (0..<points).map { (i: Int) -> Double in
            let x = Double(i)
            return 12.0 + 0.4 * sin(x / 9) - x * 0.003
        }
        return WeightChartSpec(title: "Weight", yLabel: "Weight", unitSuffix: "kg",
                               series: [LineSeries(label: "Coco", times: times, values: values)],
                               labeler: .numeric(timeZone: TimeZone(identifier: "UTC")!))
    }

    /// Page 1 of this is the golden image: every kind of block once.
    static func goldenDocument() -> ReportDocument {
        document([
            .title("Vet visit report — Coco", subtitle: "Beagle · 6 years · 2026-08-25 to 2026-11-23"),
            .alerts(["Allergic to chicken", "Weight down 6.1 % in 90 days"]),
            .heading("Profile"),
            .keyValues([("Species", "Dog"), ("Breed", "Beagle"), ("Sex", "Female, spayed"),
                        ("Born", "2020-05-14"), ("Microchip", "900 118 000 452 731"), ("Allergies", "Chicken")]),
            .heading("Summary"),
            .paragraph("Appetite was normal most days; stool scores stayed between 2 and 3 except for four days of soft stool in October."),
            .table(ReportTable(header: ["Vaccine", "Last given", "Next due", "Status"],
                               rows: [["Rabies", "2025-06-02", "2026-06-02", "Overdue"],
                                      ["DHPP", "2026-03-10", "2029-03-10", "Up to date"],
                                      ["Leptospirosis", "2026-03-10", "2027-03-10", "Up to date"]],
                               columnWeights: [3, 2, 2, 2], emphasizedRows: [0])),
            .heading("Weight"),
            .weightChart(weightSpec(), heightFraction: 0.25),
            .bullets(["Is the weight loss expected with the new food?", "When is the next hip radiograph due?"]),
        ])
    }

    /// A table of `count` rows, each with a unique token "rowNNNNx".
    static func longTable(_ count: Int) -> ReportTable {
        ReportTable(header: ["Colheader Date", "Clinic", "Diagnosis", "Cost"],
                    rows: (0..<count).map { i in
                        [String(format: "row%04dx", i), "Riverside", i % 7 == 0
                            ? "Atopic dermatitis flare-up with secondary superficial pyoderma on the ventral abdomen"
                            : "Healthy", String(format: "%d.00", 40 + i)]
                    },
                    columnWeights: [1.5, 2, 4, 1], alignments: [.left, .left, .left, .right])
    }
}
