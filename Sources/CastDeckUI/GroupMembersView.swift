// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The speakers of a speaker group, in the devices page's session (after the group's own
/// volume row, then titled "Group volume"): one row per speaker (group-member-row.ui) with its
/// name and volume, "Kitchen speaker · 40 %", and a slider for that speaker's own volume. A
/// move is sent once it settles (SettlingSlider), through a link to the speaker itself (AppModel+Group.swift);
/// what the group then reports is shown, whoever changed it.
@MainActor
final class GroupMembersView {
    static let rowResource = CastDeckApplication.resourcePath + "/ui/group-member-row.ui"

    @MainActor
    private final class MemberRow {
        let ui: Builder
        let row: ActionRow
        let slider: Scale
        var member: GroupMemberInfo
        private var settling: SettlingSlider!

        init(member: GroupMemberInfo, model: AppModel) throws {
            ui = try Builder(resource: GroupMembersView.rowResource)
            row = ui.get("row")
            slider = ui.get("member-volume")
            self.member = member
            settling = SettlingSlider(slider) { [unowned self, unowned model] level in
                let id = self.member.id
                Task { await model.setMemberVolume(id, to: level) }
            }
        }

        func update(_ m: GroupMemberInfo) {
            member = m
            row.title = m.label
            // Only a speaker CastDeck can reach by itself gets a slider; the row says why not.
            slider.isVisible = m.volume != nil
            slider.isSensitive = m.address != nil
            row.subtitle = m.address == nil ? tr("Not in the device list") : ""
            slider.setAccessibleName(tr("Volume of {0}", m.name))
            if let v = m.volume { settling.show(v) }
        }
    }

    let model: AppModel
    let group: PreferencesGroup
    let volumeRow: ActionRow
    private var rows: [MemberRow] = []

    init(model: AppModel, group: PreferencesGroup, volumeRow: ActionRow) {
        self.model = model
        self.group = group
        self.volumeRow = volumeRow
    }

    func render() {
        let members = model.groupMembers
        volumeRow.title = members.isEmpty ? tr("Volume") : tr("Group volume")
        if members.map(\.id) != rows.map(\.member.id) {
            for r in rows { group.remove(r.row) }
            rows = members.compactMap { try? MemberRow(member: $0, model: model) }
            for r in rows { group.add(r.row) }
        }
        for (r, m) in zip(rows, members) { r.update(m) }
    }
}
