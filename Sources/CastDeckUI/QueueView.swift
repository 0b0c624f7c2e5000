// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The queue in the expanded controller (queue-view.ui): the Queue button and its popover:
/// Repeat (off → all → one), Shuffle, and one row per item (thumbnail, title, artist · duration, the current item marked) named by its title for assistive technology.
/// Activating a row plays it; each row's menu has Move Up, Move Down, Remove and Play Next.
/// Every command goes through the action table ("win.queue-…" with the item id as target).
/// Items are fetched only for the rows in view (AppModel.loadQueueItems).
@MainActor
final class QueueView {
    static let resource = CastDeckApplication.resourcePath + "/ui/queue-view.ui"

    let model: AppModel
    let ui: Builder
    let bar: Box
    let queueButton: MenuButton
    let popover: Popover
    let list: ListBox
    let scroller: ScrolledWindow
    let repeatButton: Button
    let heading: Label

    struct RowWidgets {
        var row: ActionRow
        var thumb: Image
        var current: Image
        var play: Button
        var menu: MenuButton
    }
    var rows: [RowWidgets] = []
    var rendered: [AppModel.QueueRow] = []
    /// Rows are made a page at a time as the list is scrolled down (a queue of thousands
    /// would otherwise take seconds to build), always far enough to show the current item.
    /// A page is two screens of the popover (480 px, about ten rows): the next page is made
    /// while the end is still 400 px away, and a list box measures every row it holds when
    /// it opens, so each page made costs the main loop time (issue 17: 100 rows held it
    /// 45–75 ms; 40 rows about 80 ms when the popover opened).
    static let page = 20
    var shownCount = QueueView.page
    var renderedArtwork: String?
    /// Row thumbnails by their images' URLs (`QueueRow.artworkKey`): the cached file, or nil while fetching or when it failed.
    var thumbnails: [String: String?] = [:]

    init(model: AppModel) throws {
        self.model = model
        ui = try Builder(resource: Self.resource)
        bar = ui.get("bar")
        queueButton = ui.get("queue")
        popover = ui.get("popover")
        list = ui.get("list")
        scroller = ui.get("scroller")
        repeatButton = ui.get("repeat")
        heading = ui.get("heading")
        queueButton.setPopover(popover)
        popover.onShow { [unowned self] in self.loadVisibleItems() }
        scroller.verticalAdjustment.onValueChanged { [unowned self] in self.loadVisibleItems() }
    }

    func render() {
        queueButton.isSensitive = model.hasMedia
        renderRepeat()
        let count = model.queue.count
        heading.text = count > 0 ? Localization.joinParts([tr("Queue"), ntr("{0} item", "{0} items", count, count)]) : tr("Queue")
        renderRows()
    }

    private func renderRepeat() {
        let (icon, state): (String, String) =
            switch model.queue.repeatMode {
            case .all, .allAndShuffle: ("media-playlist-repeat-symbolic", tr("Repeat all"))
            case .single: ("media-playlist-repeat-song-symbolic", tr("Repeat one"))
            default: ("media-playlist-consecutive-symbolic", tr("Repeat off"))
            }
        repeatButton.iconName = icon
        repeatButton.setTooltip(state)
        repeatButton.setAccessibleDescription(state)
    }

    private func renderRows(force: Bool = false) {
        let all = model.queueRows
        let currentIndex = all.firstIndex(where: \.isCurrent) ?? 0
        shownCount = max(shownCount, currentIndex + Self.page / 2)
        let next = Array(all.prefix(shownCount))
        guard force || next != rendered || model.artworkPath(for: .queueList) != renderedArtwork else { return }
        let oldIDs = rendered.map(\.itemID), newIDs = next.map(\.itemID)
        if newIDs.count > oldIDs.count, Array(newIDs.prefix(oldIDs.count)) == oldIDs {
            // A page more: append its rows only.
            let added = next[oldIDs.count...].map(makeRow)
            for r in added { list.append(r.row) }
            rows += added
            rendered += next[oldIDs.count...].map {
                var r = $0
                r.title = ""
                return r
            }
        } else if newIDs != oldIDs {
            // The old rows are hidden now and removed a few per main-loop turn (Retire).
            let list = list
            for r in rows { r.row.isVisible = false }
            Retire.gradually(rows.map { r in { list.remove(r.row) } }, perTurn: 2)
            rows = next.map(makeRow)
            for r in rows { list.append(r.row) }
            rendered = next.map {
                var r = $0
                r.title = ""
                return r
            }  // forces the update below
        }
        for (i, row) in next.enumerated() where force || row != rendered[i] || row.isCurrent {
            update(rows[i], with: row)
        }
        rendered = next
        renderedArtwork = model.artworkPath(for: .queueList)
        // New rows may have come into view without a scroll.
        GLibSource.idle { [weak self] in self?.loadVisibleItems() }
    }

    private func makeRow(_ r: AppModel.QueueRow) -> RowWidgets {
        let row = ActionRow(title: r.title)
        // One line each: a queue is scanned, not read, and a list box measures every row it
        // holds whenever it is laid out (wrapping titles made opening 1,000 items slow).
        row.limitLines(title: 1, subtitle: 1)
        row.isActivatable = true
        let id = r.itemID
        row.onActivated { [unowned self] in Task { await self.model.perform(.queueJump(id)) } }
        // Rows reorder by drag (a row dropped on another takes its place) and by the row menu.
        row.makeDraggable(value: id)
        row.onIntDropped { [unowned self] dragged in
            guard dragged != id else { return false }
            Task { await self.model.perform(.queueMove(dragged, onto: id)) }
            return true
        }
        let thumb = Image(iconName: "audio-x-generic-symbolic", pixelSize: 32)
        row.addPrefix(thumb)
        let current = Image(iconName: "audio-volume-high-symbolic", pixelSize: 16)
        current.setAccessibleName(tr("Now playing"))
        current.addCSSClass("accent")
        row.addSuffix(current)
        // Activating the row plays it; the button does the same for assistive technology
        // (GTK 4.8 gives list rows no accessible action).
        let play = Button(iconName: "media-playback-start-symbolic")
        play.addCSSClass("flat")
        play.setAlignCenter()
        play.bindAction("win." + AppAction.Name.queueJump.rawValue, target: .int(id))
        row.addSuffix(play)
        let menu = MenuButton(iconName: "view-more-symbolic")
        menu.addCSSClass("flat")
        menu.setAlignCenter()
        // The menu is made when it first opens: a page of rows would otherwise make a page of
        // popovers on every queue change, and hardly any is ever opened.
        menu.setPopoverFactory {
            let box = Box(vertical: true, spacing: 0)
            let popover = Popover(child: box)
            var buttons: [AppAction.Name: Button] = [:]
            // Labelled by the command table, as the shortcuts window and menus are.
            for action in [AppAction.Name.queueMoveUp, .queueMoveDown, .queueRemove, .queuePlayNext] {
                let b = Button(label: action.label)
                b.addCSSClass("flat")
                b.bindAction("win." + action.rawValue, target: .int(id))
                b.onClicked { popover.popdown() }
                box.append(b)
                buttons[action] = b
            }
            // Only moves that can happen: no Move Up on the first item, no Move Down on the last
            // (looked at each time the menu opens, since the order changes).
            popover.onShow { [unowned self] in
                let ids = self.model.queue.itemIDs
                buttons[.queueMoveUp]?.isVisible = ids.first != id
                buttons[.queueMoveDown]?.isVisible = ids.last != id
            }
            return popover
        }
        row.addSuffix(menu)
        return RowWidgets(row: row, thumb: thumb, current: current, play: play, menu: menu)
    }

    private func update(_ w: RowWidgets, with r: AppModel.QueueRow) {
        w.row.title = r.title
        w.row.subtitle = r.detail
        w.current.isVisible = r.isCurrent
        w.play.isVisible = !r.isCurrent
        w.play.setAccessibleName(tr("Play {0}", r.title))
        w.play.setTooltip(tr("Play {0}", r.title))
        w.row.setAccessibleDescription(r.isCurrent ? tr("Now playing") : r.detail)
        w.menu.setAccessibleName(tr("Actions for {0}", r.title))
        w.menu.setTooltip(tr("Actions for {0}", r.title))
        // The current item shows its artwork (resolved with the current media's); others their own.
        if r.isCurrent, let art = model.artworkPath(for: .queueList) {
            w.thumb.setFile(art)
        } else if let url = r.artworkKey, let cached = thumbnails[url] {
            if let path = cached { w.thumb.setFile(path) } else { w.thumb.setIconName(r.kind.iconName) }
        } else if let url = r.artworkKey {
            // Fetched once per picture through the image cache; the row shows it when it comes.
            w.thumb.setIconName("image-x-generic-symbolic")
            thumbnails[url] = .some(nil)
            Task { [weak self] in
                guard let self else { return }
                let path = await self.model.queueThumbnail(r.artwork)
                self.thumbnails[url] = path
                if path != nil { self.renderRows(force: true) }
            }
        } else {
            w.thumb.setIconName(r.kind.iconName)
        }
    }

    /// Asks for the items of the rows in view (and a few around them); near the end of the
    /// rows made so far, makes the next page.
    func loadVisibleItems() {
        let count = rendered.count
        guard count > 0 else { return }
        let adj = scroller.verticalAdjustment
        // Only once the list is laid out and shown (before that the adjustment is all zeros).
        if count < model.queue.count, popover.isVisible, adj.pageSize > 0, adj.value + adj.pageSize > adj.upper - 400 {
            shownCount = count + Self.page
            renderRows()
            return
        }
        let rowHeight = max(1, adj.upper / Double(count))
        let first = max(0, Int(adj.value / rowHeight) - 5)
        let visible = Int((adj.pageSize > 0 ? adj.pageSize : 480) / rowHeight) + 10
        let range = first..<min(count, first + visible)
        guard range.contains(where: { !rendered[$0].isLoaded }) else { return }
        Task { await model.loadQueueItems(range) }
    }
}
