// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient

extension StatusCommand {
    /// The playing ad in one line: "2 of 3  “Clip”  0:04 / 0:10  skippable now  embedded
    /// link https://…  VAST request https://…". A VAST request is all a sender can show of
    /// an ad the receiver fetches itself (and of its companions, which travel inside it).
    static func adLine(_ ad: AdPlayback) -> String {
        var parts = ["\(ad.clipIndex) of \(ad.clipCount)"]
        if let title = ad.clipTitle { parts.append("“\(title)”") }
        parts.append("\(Output.seconds(ad.clipTime)) / \(Output.seconds(ad.clipDuration))")
        switch ad.skippableIn {
        case nil: parts.append("not skippable")
        case 0?: parts.append("skippable now")
        case let wait?: parts.append("skippable in \(Output.seconds(wait))")
        }
        if ad.isEmbedded { parts.append("embedded") }
        if let link = ad.learnMoreURL { parts.append("link \(link)") }
        if let vast = ad.vastAdsRequest {
            parts.append("VAST request" + (vast.adTagUrl.map { " \($0)" } ?? vast.adsResponse.map { _ in " (inline response)" } ?? ""))
        }
        return parts.joined(separator: "  ")
    }
}
