import CastClient
import CastProtocol

// The receiver's queue as far as Next/Previous need it (MPRIS, media keys). The queue itself
// stays in the media status; nothing is kept here.
extension AppModel {
    /// The queue's items the receiver reported (empty for a single media item).
    public var queueItems: [QueueItem] { mediaStatus?.items ?? mediaStatus?.queueData?.items ?? [] }

    private var currentQueueIndex: Int? {
        guard let current = mediaStatus?.currentItemId else { return nil }
        return queueItems.firstIndex { $0.itemId == current }
    }

    private var repeatsAll: Bool {
        let mode = mediaStatus?.repeatMode ?? mediaStatus?.queueData?.repeatMode
        return mode == .all || mode == .allAndShuffle
    }

    /// Whether QUEUE_NEXT has somewhere to go: a later item, or the queue repeats.
    public var hasNextItem: Bool {
        guard let i = currentQueueIndex else { return false }
        return i + 1 < queueItems.count || (repeatsAll && queueItems.count > 1)
    }

    /// Whether QUEUE_PREV has somewhere to go.
    public var hasPreviousItem: Bool {
        guard let i = currentQueueIndex else { return false }
        return i > 0 || (repeatsAll && queueItems.count > 1)
    }

    public func queueNext() async {
        await send { try await $0.media.queueNext() }
    }

    public func queuePrevious() async {
        await send { try await $0.media.queuePrev() }
    }

    private func send(_ body: (CastSession) async throws -> Void) async {
        guard let session else { post(tr("Not connected to a Cast device.")); return }
        do { try await body(session) } catch { post(Self.describe(error)) }
    }
}
