package webpage

import "strconv"

// extensions are the synthetic objects' file extensions, by kind.
var extensions = map[string]string{KindHTML: ".html", KindCSS: ".css", KindJS: ".js", KindImage: ".bmp", KindFont: ".woff2", KindOther: ".bin"}

// syntheticName is the name a synthetic page's i-th object is served
// under DocumentPath: its index and its kind's extension.
func syntheticName(i int, kind string) string {
	ext, ok := extensions[kind]
	if !ok {
		ext = ".bin"
	}
	return strconv.Itoa(i) + ext
}
