package chat

import (
	"path/filepath"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// imagePlaceholder is how a tool's image appears in the chat: a label and
// the saved file as an OSC 8 hyperlink (file://), which terminals that
// support it open on click; the path stays readable for the others.
func imagePlaceholder(st kit.Styles, path string, w int) string {
	label := st.Accent.Render("🖼 Image") + " " + st.Muted.Render(filepath.Base(path))
	link := path
	if filepath.IsAbs(path) {
		link = ansi.SetHyperlink("file://"+path) + path + ansi.ResetHyperlink()
	}
	return label + "\n" + ansi.Wrap(link, w, "/") + "\n" + st.Muted.Render("(click the path to open it)")
}
