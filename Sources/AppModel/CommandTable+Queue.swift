// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient

// The queue's entries of the command table (CommandTable.swift): moving through the queue,
// editing it, repeat and shuffle. Each runs through `AppModel.queueCommand` (AppModel+Queue).
extension AppCommand {
    static var queueNext: AppCommand {
        AppCommand(
            { tr("Next") },
            enabled: { m in
                guard m.hasQueue, m.isConnected, m.supports(.queueNext), let i = m.queue.currentIndex else { return false }
                return i + 1 < m.queue.count || m.queueWraps
            }, run: { m, _ in await m.queueCommand { q throws(CastClientError) in try await q.queueNext() } })
    }

    static var queuePrev: AppCommand {
        AppCommand(
            { tr("Previous") },
            enabled: { m in
                guard m.hasQueue, m.isConnected, m.supports(.queuePrev), let i = m.queue.currentIndex else { return false }
                return i > 0 || m.queueWraps
            }, run: { m, _ in await m.queueCommand { q throws(CastClientError) in try await q.queuePrev() } })
    }

    static var queueJump: AppCommand {
        AppCommand(
            { tr("Play") }, parameter: .int, enabled: { $0.hasQueueItems },
            run: { m, a in
                guard let id = a.int else { return }
                await m.queueCommand { q throws(CastClientError) in try await q.queueJump(to: id) }
            })
    }

    static var queueRemove: AppCommand {
        AppCommand(
            { tr("Remove") }, parameter: .int, enabled: { $0.hasQueueItems },
            run: { m, a in
                guard let id = a.int else { return }
                await m.queueCommand { q throws(CastClientError) in try await q.queueRemove([id]) }
            })
    }

    static var queueMoveUp: AppCommand {
        AppCommand(
            { tr("Move Up") }, parameter: .int, enabled: { $0.hasQueueItems },
            run: { m, a in if let id = a.int { await m.moveQueueItem(id, by: -1) } })
    }

    static var queueMove: AppCommand {
        AppCommand(
            { tr("Move") }, parameter: .pair, enabled: { $0.hasQueueItems },
            run: { m, a in
                if case .pair(let id, let target) = a { await m.moveQueueItem(id, onto: target) }
            })
    }

    static var queueMoveDown: AppCommand {
        AppCommand(
            { tr("Move Down") }, parameter: .int, enabled: { $0.hasQueueItems },
            run: { m, a in if let id = a.int { await m.moveQueueItem(id, by: 1) } })
    }

    static var queuePlayNext: AppCommand {
        AppCommand(
            { tr("Play Next") }, parameter: .int, enabled: { $0.hasQueueItems },
            run: { m, a in if let id = a.int { await m.playQueueItemNext(id) } })
    }

    static var cycleRepeat: AppCommand {
        AppCommand(
            { tr("Repeat") }, enabled: { $0.hasQueueItems && $0.supports(.queueRepeat) },
            run: { m, _ in await m.cycleRepeat() })
    }

    static var setRepeatMode: AppCommand {
        AppCommand(
            { tr("Repeat") }, parameter: .int, enabled: { $0.hasQueueItems && $0.supports(.queueRepeat) },
            run: { m, a in
                guard let i = a.int, AppModel.repeatModes.indices.contains(i) else { return }
                await m.setRepeat(AppModel.repeatModes[i])
            })
    }

    static var toggleShuffle: AppCommand {
        AppCommand(
            { tr("Shuffle") }, enabled: { $0.hasQueue && $0.isConnected && $0.supports(.queueShuffle) },
            state: { .bool($0.queue.repeatMode == .allAndShuffle) }, run: { m, _ in await m.toggleShuffle() })
    }
}
