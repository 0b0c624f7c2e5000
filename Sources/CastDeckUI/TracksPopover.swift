import AppModel
import GtkInterop

/// "Subtitles and audio" (tracks-popover.ui): Off and each text track, then each audio track,
/// as toggle buttons bound to win.text-track / win.audio-track with the track id as target,
/// so GTK presses the button of the action's state (the receiver's active track).
@MainActor
final class TracksPopover {
    static let resource = CastDeckApplication.resourcePath + "/ui/tracks-popover.ui"

    let model: AppModel
    let ui: Builder
    let popover: Popover
    let box: Box
    var renderedTracks: [MediaTrackSummary] = []
    /// Buttons per kind at most: a receiver may list thousands of tracks (issue 17), and
    /// nobody picks from more than this; the rest are counted in one line.
    static let maxButtonsPerKind = 50

    /// What the buttons show; rebuilt only when it changes.
    struct MediaTrackSummary: Equatable {
        var id: Int
        var label: String
        var isAudio: Bool
        var isBurnable = false
    }

    init(model: AppModel) throws {
        self.model = model
        ui = try Builder(resource: Self.resource)
        popover = ui.get("popover")
        box = ui.get("tracks")
    }

    func render() {
        let tracks = model.textTracks.map { MediaTrackSummary(id: $0.trackId, label: AppModel.trackLabel($0), isAudio: false) }
            + model.audioTracks.map { MediaTrackSummary(id: $0.trackId, label: AppModel.trackLabel($0), isAudio: true) }
            + model.burnableSubtitles.map { MediaTrackSummary(id: $0.number, label: $0.label, isAudio: false, isBurnable: true) }
        guard tracks != renderedTracks else { return }
        renderedTracks = tracks
        box.removeAll()
        box.append(Label(tr("Subtitles"), classes: ["heading"]))
        // Toggle buttons rather than radio check buttons: GTK 4.8 gives check buttons no
        // accessible action, so screen readers could read but not choose them.
        addButton(tr("Off"), action: .selectTextTrack, target: -1)
        addCapped(tracks.filter { !$0.isAudio && !$0.isBurnable }, action: .selectTextTrack)
        if tracks.contains(where: \.isAudio) {
            box.append(Label(tr("Audio"), classes: ["heading"]))
            addCapped(tracks.filter(\.isAudio), action: .selectAudioTrack)
        }
        // A file converted here can have a subtitle drawn into the picture (image subtitles
        // such as PGS cannot be text tracks); choosing one casts it again from where it is.
        if tracks.contains(where: \.isBurnable) {
            box.append(Label(tr("Burn In Subtitles"), classes: ["heading"]))
            addButton(tr("None"), action: .burnSubtitles, target: -1)
            for t in tracks where t.isBurnable {
                addButton(t.label, action: .burnSubtitles, target: t.id, name: tr("Burn in {0}", t.label))
            }
        }
    }

    /// The first `maxButtonsPerKind` tracks as buttons, then how many are left out.
    private func addCapped(_ list: [MediaTrackSummary], action: AppAction.Name) {
        for t in list.prefix(Self.maxButtonsPerKind) { addButton(t.label, action: action, target: t.id) }
        let hidden = list.count - Self.maxButtonsPerKind
        if hidden > 0 {
            box.append(Label(ntr("{0} more track not shown", "{0} more tracks not shown", hidden, hidden), classes: ["dim-label"]))
        }
    }

    private func addButton(_ label: String, action: AppAction.Name, target: Int, name: String? = nil) {
        let b = ToggleButton(label: label)
        if let name { b.setAccessibleName(name) }
        b.addCSSClass("flat")
        b.alignLabelStart()
        b.ellipsizeLabel(maxWidthChars: 40)
        b.setAction("win." + action.rawValue, target: .int(target))
        box.append(b)
    }
}
