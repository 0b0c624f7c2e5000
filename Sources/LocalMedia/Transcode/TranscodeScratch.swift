// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The scratch folder for converted segments: `$XDG_CACHE_HOME/castdeck/transcode`, one
/// sub-folder per cast named `<pid>-<random>`. A cast removes its folder when it ends; the
/// folders of a process that is gone (killed, crashed) are swept at the next start.
public enum TranscodeScratch {
    /// Default bound of one cast's folder (the `transcode-cache-size-mb` setting).
    public static let defaultSizeLimitMB = 2048
    /// x264 CRF (the `transcode-quality` setting: lower is better and larger).
    public static let defaultQuality = 21

    /// The root, or nil when no cache directory is known.
    public static func root(environment: [String: String]? = nil) -> String? {
        XDGDirectory.cache.path(environment: environment).map { $0 + "/transcode" }
    }

    /// Removes folders left by processes that no longer run; returns how many.
    @discardableResult
    public static func sweep(root: String) -> Int {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: root) else { return 0 }
        var removed = 0
        for n in names {
            guard let dash = n.firstIndex(of: "-"), let pid = pid_t(n[..<dash]) else { continue }
            let alive = kill(pid, 0) == 0 || errno == EPERM
            if !alive {
                if (try? fm.removeItem(atPath: (root as NSString).appendingPathComponent(n))) != nil { removed += 1 }
            }
        }
        return removed
    }
}
