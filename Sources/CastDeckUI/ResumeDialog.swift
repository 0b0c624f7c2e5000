// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// Casting what stopped part-way asks first (AppModel.resumePrompt): **Resume at 42:10** (the
/// default: Enter), **Start Over**, or Escape, which casts nothing.
@MainActor
enum ResumeDialog {
    static func ask(parent: Window?, _ question: AppModel.ResumeQuestion) async -> AppModel.ResumeAnswer {
        let at = formatTime(question.position)
        let body =
            question.item.map { tr("“{0}” stopped at item {1}, at {2}, last time.", question.title, $0 + 1, at) }
            ?? tr("“{0}” stopped at {1} last time.", question.title, at)
        let dialog = MessageDialog.make(
            parent: parent, heading: tr("Resume Playback?"), body: body,
            responses: [("start-over", tr("Start Over")), ("resume", tr("Resume at {0}", at))], suggested: "resume")
        dialog.setCloseResponse("cancel")
        return await withCheckedContinuation { continuation in
            var answered = false
            dialog.onResponse { response in
                guard !answered else { return }
                answered = true
                switch response {
                case "resume": continuation.resume(returning: .resume)
                case "start-over": continuation.resume(returning: .startOver)
                default: continuation.resume(returning: .cancel)
                }
            }
            dialog.asWindow.present()
        }
    }
}
