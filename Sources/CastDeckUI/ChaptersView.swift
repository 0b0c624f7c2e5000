// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastCore
import GtkInterop

/// The expanded controller's chapters (chapters.ui, issue 31): the chapter playing under the
/// media's title ("Chapter 2 · The Bullies", also an audiobook chapter's number and title),
/// a row under the seek bar with Previous chapter, the Chapters menu and Next chapter, and a
/// tick on the seek bar where each chapter starts. Everything reads `AppModel.chapters`; the
/// buttons and the menu's rows are bound to win.chapter-prev, win.chapter-next and
/// win.chapter (with the chapter's index; its state is the chapter playing, checked in the
/// menu), so they follow the command table.
@MainActor
final class ChaptersView {
    static let resource = CastDeckApplication.resourcePath + "/ui/chapters.ui"

    let model: AppModel
    let ui: Builder
    let line: Label
    let row: Box
    let menuButton: MenuButton
    let popover: Popover
    let scroller: ScrolledWindow
    let actions: ModelActions
    private var rendered: [MediaChapter]?

    init(model: AppModel, actions: ModelActions) throws {
        self.model = model
        self.actions = actions
        ui = try Builder(resource: Self.resource)
        line = ui.get("chapter-line")
        row = ui.get("chapter-row")
        menuButton = ui.get("chapters")
        popover = ui.get("chapters-popover")
        scroller = ui.get("chapters-scroller")
        popover.passQuitShortcut()
        // The chapter playing (win.chapter's state) follows the position, which moves without a
        // model change: read it again on opening.
        popover.onShow { [unowned self] in
            self.buildRows()
            self.actions.refresh()
        }
    }

    /// Puts the line under `subtitle` in `column`, and the row after `afterRow` in `transport`.
    func install(column: Box, after subtitle: some WidgetWrapper, transport: Box, afterRow: Widget?) {
        column.insert(line, after: subtitle)
        if let afterRow { transport.insert(row, after: afterRow) } else { transport.append(row) }
    }

    func render() {
        let chapters = model.chapters
        row.isVisible = !chapters.isEmpty
        menuButton.isSensitive = model.isEnabled(.seekToChapter)
        // The rows are made when the menu opens: a file may list a thousand chapters, and
        // a thousand buttons made with every new media would hold the main loop for nothing.
        if chapters != rendered, popover.isVisible { buildRows() }
    }

    private func buildRows() {
        let chapters = model.chapters
        guard chapters != rendered else { return }
        rendered = chapters
        let list = Box(vertical: true, spacing: 2)
        list.setMargins(6)
        // One choice row per chapter, bound to win.chapter: GTK checks the row of the action's
        // state, the chapter playing.
        for (i, chapter) in chapters.enumerated() {
            let b = ToggleButton.choice(
                AppModel.chapterName(number: i + 1, title: chapter.title), detail: formatTime(chapter.start), maxWidthChars: 40)
            b.bindAction("win." + AppAction.Name.seekToChapter.rawValue, target: .int(i))
            // A click (not the state following the position) closes the menu.
            _ = b.on("clicked") { [unowned self] in self.popover.popdown() }
            list.append(b)
        }
        scroller.setChild(list)
    }

    /// Twice a second with the position: the chapter line.
    func renderProgress() {
        let text = model.chapterLine(at: .now)
        line.text = text ?? ""
        line.isVisible = text != nil
    }

    /// A tick across the seek bar's trough where each chapter after the first starts (drawn
    /// with the ad-break markers, in the same coordinates).
    func drawTicks(_ cr: Cairo, width w: Double, height h: Double, inset: Double, duration d: Double, rightToLeft rtl: Bool) {
        let width = w - 2 * inset
        for chapter in model.chapters where chapter.start > 0 && chapter.start < d {
            var x = inset + width * chapter.start / d
            if rtl { x = w - x }
            cr.newPath()
            cr.rectangle(x - 1, h / 2 - 6, 2, 12)
            cr.setColor(RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.9))
            cr.fill()
        }
    }
}
