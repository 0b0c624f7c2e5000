// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Queue entries turned into queue items (QueueBatch, MediaShare.queueItems); what a QueueEntry is: QueueSources.swift.

import CastProtocol
import Foundation

/// Queue entries turned into queue items: files shared by the media server (their tags give
/// the metadata; a playlist title wins), URLs described from their name. What cannot be cast
/// is left out with a sentence in `failures`; `casts` are the shares to end with the queue.
public struct QueueBatch: Sendable {
    public var items: [QueueItem] = []
    public var casts: [LocalCast] = []
    public var warnings: [String] = []
    public var failures: [String] = []
}

extension MediaShare {
    /// - Parameters:
    ///   - model, surround: the device's model and its surround setting (as `prepare` takes them).
    ///   - words: how the files' tracks are named (as `prepare` names them).
    ///   - languages: the languages the user reads, most preferred first: each file's matching
    ///     subtitle file is turned on (`LocalCast.defaultTextTrack`); none leaves them off.
    public func queueItems(
        for entries: [QueueEntry], device: String, localAddress: String, model: String? = nil, surround: Bool = false, words: TrackWords = .english,
        languages: [String] = []
    ) async -> QueueBatch {
        var out = QueueBatch()
        for entry in entries {
            switch entry.location {
            case .url(let url):
                let type = QueueSources.contentType(ofURL: url)
                let last = URL(string: url)?.lastPathComponent ?? ""
                let name = last.isEmpty || last == "/" ? url : (last.removingPercentEncoding ?? last)
                let kind: MetadataType = type.hasPrefix("audio/") ? .musicTrack : .generic
                let media = MediaInformation(
                    contentId: url, contentUrl: url, streamType: .buffered, contentType: type,
                    metadata: MediaMetadata(metadataType: kind, title: entry.title ?? name))
                out.items.append(QueueItem(media: media, autoplay: true))
            case .file(let path):
                do {
                    let cast = try await prepare(file: path, device: device, localAddress: localAddress, model: model, surround: surround, words: words)
                    var media = cast.media
                    if let title = entry.title { media.metadata?.title = title }
                    out.warnings += cast.warnings
                    out.casts.append(cast)
                    out.items.append(QueueItem(media: media, autoplay: true, activeTrackIds: cast.defaultTextTrack(languages: languages).map { [$0] }))
                } catch {
                    out.failures.append(error.description)
                }
            }
        }
        return out
    }
}
