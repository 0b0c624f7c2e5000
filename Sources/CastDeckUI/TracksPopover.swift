// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import GLibInterop
import GtkInterop

/// "Subtitles and audio" (tracks-popover.ui): Off and each text track, then each audio track,
/// then the subtitles that can be burned in: one group of choice rows each (a check mark on the
/// chosen row, a radio button to assistive technology), bound to win.text-track /
/// win.audio-track / win.burn-subtitles with the track id as target, so GTK marks the row of
/// the action's state (the receiver's active track) and only that one in each group.
@MainActor
final class TracksPopover {
    static let resource = CastDeckApplication.resourcePath + "/ui/tracks-popover.ui"

    let model: AppModel
    let ui: Builder
    let popover: Popover
    let scroller: ScrolledWindow
    /// Holds the content: one Box of headings and buttons, replaced when the tracks change.
    let holder = Box(vertical: true)
    private var content: Box?
    /// What the content was made from; labels are made only for the buttons shown.
    private var rendered: Source?
    /// A receiver may list thousands of tracks (issue 17). Each kind shows its first
    /// `firstPage` (and at least up to the active one), then a line counting the rest with
    /// Show More, which adds `morePage` at a time: opening a popover of 100 buttons held the
    /// main loop 50–80 ms, and nobody picks from a list that long without asking for it.
    static let firstPage = 20
    static let morePage = 50
    /// Widgets of replaced content removed per main-loop turn (see `retire`).
    static let retireBatch = 4

    struct Source: Equatable {
        var text: [MediaTrack]
        var audio: [MediaTrack]
        var burnable: [BurnableKey]
    }
    struct BurnableKey: Equatable {
        var number: Int
        var label: String
    }

    /// One kind's buttons, made a page at a time.
    @MainActor
    final class Section {
        let list = Box(vertical: true, spacing: 6)
        let tracks: [MediaTrack]
        let action: AppAction.Name
        /// Names "Show More" for assistive technology: there may be one per kind.
        let moreName: String
        var shown = 0
        var moreRow: Box?

        init(tracks: [MediaTrack], action: AppAction.Name, moreName: String) {
            self.tracks = tracks
            self.action = action
            self.moreName = moreName
        }
    }
    private(set) var sections: [Section] = []

    init(model: AppModel) throws {
        self.model = model
        ui = try Builder(resource: Self.resource)
        popover = ui.get("popover")
        scroller = ui.get("scroller")
        holder.setMargins(6)
        scroller.setChild(holder)
    }

    func render() {
        let source = Source(
            text: model.textTracks, audio: model.audioTracks,
            burnable: model.burnableSubtitles.map { BurnableKey(number: $0.number, label: $0.label) })
        guard source != rendered else { return }
        rendered = source
        let box = Box(vertical: true, spacing: 6)
        let oldLists = sections.map(\.list)
        sections = []
        let active = Set(model.activeTrackIDs)
        box.append(Label(tr("Subtitles"), classes: ["heading"]))
        box.append(button(tr("Off"), action: .selectTextTrack, target: -1))
        addSection(to: box, source.text, action: .selectTextTrack, moreName: tr("Show More Subtitles"), active: active)
        if !source.audio.isEmpty {
            box.append(Label(tr("Audio"), classes: ["heading"]))
            addSection(to: box, source.audio, action: .selectAudioTrack, moreName: tr("Show More Audio Tracks"), active: active)
        }
        // A file converted here can have a subtitle drawn into the picture (image subtitles
        // such as PGS cannot be text tracks); choosing one casts it again from where it is.
        if !source.burnable.isEmpty {
            box.append(Label(tr("Burn In Subtitles"), classes: ["heading"]))
            box.append(button(tr("None"), action: .burnSubtitles, target: -1))
            for t in source.burnable {
                // Named apart from the same stream among the subtitles above.
                box.append(button(t.label, action: .burnSubtitles, target: t.number, name: tr("Burn in {0}", t.label)))
            }
        }
        if let old = content { retire(old, lists: oldLists) }
        holder.append(box)
        content = box
    }

    /// Hides replaced content at once and takes it apart a few widgets per main-loop turn
    /// (see Retire): the sections' buttons, then the headings and the emptied lists.
    private func retire(_ old: Box, lists: [Box]) {
        old.isVisible = false
        let holder = holder
        var removals: [@MainActor () -> Void] = []
        for list in lists { for child in list.children { removals.append { list.remove(child) } } }
        for child in old.children { removals.append { old.remove(child) } }
        removals.append { holder.remove(old) }
        Retire.gradually(removals, perTurn: Self.retireBatch)
    }

    private func addSection(to box: Box, _ list: [MediaTrack], action: AppAction.Name, moreName: String, active: Set<Int>) {
        let section = Section(tracks: list, action: action, moreName: moreName)
        sections.append(section)
        box.append(section.list)
        let lastActive = list.lastIndex { active.contains($0.trackId) }.map { $0 + 1 } ?? 0
        showMore(section, count: max(Self.firstPage, lastActive))
    }

    /// Adds the section's next `count` buttons; while some are left, a line counting them
    /// and a Show More button end the section. Returns the first button added.
    @discardableResult
    func showMore(_ section: Section, count: Int) -> ToggleButton? {
        if let row = section.moreRow {
            section.list.remove(row)
            section.moreRow = nil
        }
        let end = min(section.tracks.count, section.shown + count)
        var first: ToggleButton?
        for t in section.tracks[section.shown..<end] {
            let b = button(AppModel.trackLabel(t), action: section.action, target: t.trackId)
            first = first ?? b
            section.list.append(b)
        }
        section.shown = end
        let hidden = section.tracks.count - end
        if hidden > 0 {
            let row = Box(vertical: false, spacing: 6)
            let count = Label(ntr("{0} more track not shown", "{0} more tracks not shown", hidden, hidden), classes: ["dim-label"])
            count.hexpand = true
            let more = Button(label: tr("Show More"))
            more.addCSSClass("flat")
            more.setAccessibleName(section.moreName)
            more.setTooltip(section.moreName)
            more.onClicked { [unowned self, unowned section] in
                // Keyboard focus moves to the first new track, where the button was.
                self.showMore(section, count: Self.morePage)?.grabFocus()
            }
            row.append(count, more)
            section.list.append(row)
            section.moreRow = row
        }
        return first
    }

    private func button(_ label: String, action: AppAction.Name, target: Int, name: String? = nil) -> ToggleButton {
        let b = ToggleButton.choice(label, maxWidthChars: 40)
        if let name { b.setAccessibleName(name) }
        b.bindAction("win." + action.rawValue, target: .int(target))
        return b
    }
}
