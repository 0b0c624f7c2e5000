// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore
import CastProtocol

/// A size in device pixels (scale factor already applied).
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A size given in logical points, multiplied by the display's scale factor (e.g. 2 on HiDPI).
    public init(points width: Int, _ height: Int, scale: Int) {
        self.width = width * max(1, scale)
        self.height = height * max(1, scale)
    }

    public var description: String { "\(width)x\(height)" }
    var area: Int { width * height }
}

/// What the UI wants to show: a use and the box in device pixels it will be drawn into.
public struct ImageRequest: Hashable, Sendable {
    public var use: ImageUse
    public var size: PixelSize

    public init(use: ImageUse, size: PixelSize) {
        self.use = use
        self.size = size
    }

    /// The use's default point size at the given display scale factor.
    public init(use: ImageUse, scale: Int = 1) {
        let points = use.defaultPointSize
        self.init(use: use, size: PixelSize(points: points.width, points.height, scale: scale))
    }
}

/// Chooses which of a media item's images to show for a request. The app may supply its own policy.
public protocol ImagePicker: Sendable {
    /// Returns the image to load for `request`, or nil when `images` offers nothing usable.
    func pickImage(from images: [CastImage], for request: ImageRequest) -> CastImage?
}

/// The default policy, after GCKUIImagePicker:
/// 1. Images whose width and height both reach the requested pixel size "cover" it; the smallest
///    covering image wins (less to download and decode), preferring one of the same aspect ratio.
/// 2. If none covers, the largest image with known size wins (same aspect breaks ties).
/// 3. Images without a known width and height come last, in the order the sender listed them.
/// Images whose URL is empty are never picked.
public struct DefaultImagePicker: ImagePicker {
    /// How far apart two aspect ratios may be (relative) and still count as "the same".
    public var aspectTolerance: Double

    public init(aspectTolerance: Double = 0.1) {
        self.aspectTolerance = aspectTolerance
    }

    public func pickImage(from images: [CastImage], for request: ImageRequest) -> CastImage? {
        let usable = images.filter { !$0.url.isEmpty }
        let target = request.size
        let targetAspect = target.height > 0 ? Double(target.width) / Double(target.height) : 1

        struct Sized {
            var image: CastImage
            var w: Int
            var h: Int
            var sameAspect: Bool
            var order: Int
        }
        var sized: [Sized] = []
        var unknown: [CastImage] = []
        for (i, image) in usable.enumerated() {
            if let w = image.width, let h = image.height, w > 0, h > 0 {
                let aspect = Double(w) / Double(h)
                let same = abs(aspect / targetAspect - 1) <= aspectTolerance
                sized.append(Sized(image: image, w: w, h: h, sameAspect: same, order: i))
            } else {
                unknown.append(image)
            }
        }

        let covering = sized.filter { $0.w >= target.width && $0.h >= target.height }
        if !covering.isEmpty {
            let best = covering.min { a, b in
                if a.sameAspect != b.sameAspect { return a.sameAspect }
                if a.w * a.h != b.w * b.h { return a.w * a.h < b.w * b.h }
                return a.order < b.order
            }
            return best?.image
        }
        if !sized.isEmpty {
            let best = sized.min { a, b in
                if a.w * a.h != b.w * b.h { return a.w * a.h > b.w * b.h }
                if a.sameAspect != b.sameAspect { return a.sameAspect }
                return a.order < b.order
            }
            return best?.image
        }
        return unknown.first
    }
}
