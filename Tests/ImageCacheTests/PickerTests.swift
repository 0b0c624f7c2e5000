// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import ImageCache
import XCTest

final class PickerTests: XCTestCase {
    private func img(_ name: String, _ w: Int?, _ h: Int?) -> CastImage {
        CastImage(url: "http://h/\(name)", width: w, height: h)
    }

    func testDefaultPolicyTable() {
        let small = img("small", 100, 100)
        let medium = img("medium", 300, 300)
        let large = img("large", 1200, 1200)
        let wide = img("wide", 1280, 720)
        let wideSmall = img("wideSmall", 400, 225)
        let unknownA = img("unknownA", nil, nil)
        let unknownB = img("unknownB", 500, nil)
        let empty = CastImage(url: "", width: 2000, height: 2000)

        struct Case {
            var line: UInt
            var images: [CastImage]
            var size: PixelSize
            var expected: String?
        }
        let cases: [Case] = [
            // Smallest covering image wins.
            Case(line: #line, images: [large, medium, small], size: PixelSize(width: 96, height: 96), expected: "small"),
            Case(line: #line, images: [large, medium, small], size: PixelSize(width: 101, height: 101), expected: "medium"),
            Case(line: #line, images: [small, large, medium], size: PixelSize(width: 300, height: 300), expected: "medium"),
            // Scale factor: 48 pt at 2x = 96 px; 160 pt at 2x = 320 px needs the large one.
            Case(line: #line, images: [large, medium, small], size: PixelSize(points: 48, 48, scale: 2), expected: "small"),
            Case(line: #line, images: [large, medium, small], size: PixelSize(points: 160, 160, scale: 2), expected: "large"),
            // Nothing covers: the largest.
            Case(line: #line, images: [small, medium], size: PixelSize(width: 2000, height: 2000), expected: "medium"),
            // Same aspect preferred among covering images, even if larger.
            Case(line: #line, images: [large, wide], size: PixelSize(width: 640, height: 360), expected: "wide"),
            Case(line: #line, images: [wide, large], size: PixelSize(width: 300, height: 300), expected: "large"),
            Case(line: #line, images: [wideSmall, wide, medium], size: PixelSize(width: 320, height: 180), expected: "wideSmall"),
            // Not covering in one dimension does not count as covering.
            Case(line: #line, images: [wide, medium], size: PixelSize(width: 800, height: 800), expected: "wide"),
            // Unknown sizes come last, in sender order.
            Case(line: #line, images: [unknownA, small], size: PixelSize(width: 500, height: 500), expected: "small"),
            Case(line: #line, images: [unknownA, unknownB], size: PixelSize(width: 50, height: 50), expected: "unknownA"),
            Case(line: #line, images: [unknownB, unknownA], size: PixelSize(width: 50, height: 50), expected: "unknownB"),
            // Empty URLs are never picked; nothing at all gives nil.
            Case(line: #line, images: [empty, small], size: PixelSize(width: 2000, height: 2000), expected: "small"),
            Case(line: #line, images: [empty], size: PixelSize(width: 10, height: 10), expected: nil),
            Case(line: #line, images: [], size: PixelSize(width: 10, height: 10), expected: nil),
        ]
        let picker = DefaultImagePicker()
        for c in cases {
            for use in ImageUse.allCases {
                let picked = picker.pickImage(from: c.images, for: ImageRequest(use: use, size: c.size))
                XCTAssertEqual(
                    picked.map { String($0.url.dropFirst("http://h/".count)) }, c.expected,
                    "use \(use), size \(c.size)", line: c.line)
            }
        }
    }

    func testUsesHaveDefaultSizesScaledByTheDisplay() {
        XCTAssertEqual(ImageRequest(use: .miniControllerThumbnail, scale: 2).size, PixelSize(width: 96, height: 96))
        XCTAssertEqual(ImageRequest(use: .expandedControllerBackground).size, PixelSize(width: 640, height: 640))
        XCTAssertEqual(ImageRequest(use: .queueList, scale: 3).size, PixelSize(width: 120, height: 120))
        XCTAssertEqual(ImageRequest(use: .deviceList).size, PixelSize(width: 40, height: 40))
    }

    /// The picker is a protocol: an app policy replaces the default.
    func testCustomPolicy() {
        struct FirstImage: ImagePicker {
            func pickImage(from images: [CastImage], for request: ImageRequest) -> CastImage? { images.first }
        }
        let images = [img("a", 10, 10), img("b", 1000, 1000)]
        let request = ImageRequest(use: .expandedControllerBackground)
        XCTAssertEqual(FirstImage().pickImage(from: images, for: request)?.url, "http://h/a")
        XCTAssertEqual(DefaultImagePicker().pickImage(from: images, for: request)?.url, "http://h/b")
    }
}
