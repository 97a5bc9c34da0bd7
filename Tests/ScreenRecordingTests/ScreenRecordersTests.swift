import ScreenRecording
import Testing

/// Which processes count as capturing the screen, as the window's recording
/// watch reads them from `/proc`.
@Suite("Screen recorders: by name, by grabbing arguments, by script")
struct ScreenRecordersTests {
  func recorder(_ name: String, _ arguments: [String] = []) -> String? {
    ScreenRecorders.recorder(in: ProcessEntry(parentID: 1, name: name, arguments: arguments))
  }

  @Test("dedicated recorders by their process name")
  func dedicated() {
    #expect(recorder("obs", ["obs"]) == "obs")
    #expect(recorder("wf-recorder", ["wf-recorder", "-f", "out.mp4"]) == "wf-recorder")
    #expect(recorder("vokoscreenNG", ["/usr/bin/vokoscreenNG"]) == "vokoscreenNG")
    // The kernel keeps 15 bytes of a name.
    #expect(recorder("simplescreenrec", []) == "simplescreenrecorder")
  }

  @Test("a recorder written as a script, run by its interpreter")
  func script() {
    #expect(recorder("python3", ["/usr/bin/python3", "/usr/bin/kazam"]) == "kazam")
    #expect(recorder("python3", ["python3", "/usr/bin/other-tool"]) == nil)
  }

  @Test("FFmpeg and GStreamer only when told to grab the screen")
  func generalTools() {
    #expect(recorder("ffmpeg", ["ffmpeg", "-f", "x11grab", "-i", ":0", "out.mkv"]) == "ffmpeg")
    #expect(
      recorder("ffmpeg", ["ffmpeg", "-device", "/dev/dri/card0", "-f", "kmsgrab"]) == "ffmpeg")
    #expect(
      recorder("gst-launch-1.0", ["gst-launch-1.0", "ximagesrc", "!", "videoconvert"])
        == "gst-launch-1.0")
    #expect(
      recorder("gst-launch-1.0", ["gst-launch-1.0", "pipewiresrc", "path=42", "!", "fakesink"])
        == "gst-launch-1.0")
    // Converting a file records nothing.
    #expect(recorder("ffmpeg", ["ffmpeg", "-i", "in.mkv", "out.mp4"]) == nil)
    #expect(recorder("gst-launch-1.0", ["gst-launch-1.0", "filesrc", "location=a"]) == nil)
  }

  @Test("GNOME Shell's screencast service")
  func gnomeShell() {
    #expect(
      recorder("gjs", ["/usr/bin/gjs", "-m", "/usr/share/gnome-shell/org.gnome.Shell.Screencast"])
        == "GNOME Shell's screencast")
    #expect(
      recorder(
        "gjs", ["/usr/bin/gjs", "-m", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"])
        == nil)
  }

  @Test("control: ordinary programs, and the terminal recorders, are not screen recorders")
  func ordinaryPrograms() {
    #expect(recorder("bash", ["-bash"]) == nil)
    #expect(recorder("gnome-shell", ["/usr/bin/gnome-shell"]) == nil)
    #expect(recorder("script", ["script", "-q", "log"]) == nil)
  }

  @Test("candidates: only these names have their command line read")
  func candidates() {
    #expect(ScreenRecorders.isCandidate(name: "ffmpeg"))
    #expect(ScreenRecorders.isCandidate(name: "python3"))
    #expect(ScreenRecorders.isCandidate(name: "gjs"))
    #expect(ScreenRecorders.isCandidate(name: "simplescreenrec"))
    #expect(!ScreenRecorders.isCandidate(name: "firefox-esr"))
    #expect(!ScreenRecorders.isCandidate(name: "Xvfb"))
  }
}
