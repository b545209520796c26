package peers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// CurlOptions describe one curl transfer.
type CurlOptions struct {
	// URL is fetched (or uploaded to, with UploadFile).
	URL string
	// Protocol is the transport: h1, h2c, h1-tls or h2 (this curl has no h3).
	Protocol transport.Protocol
	// CAFile is a PEM file of certificates to trust (curl --cacert).
	CAFile string
	// Insecure skips certificate verification (curl -k).
	Insecure bool
	// UploadFile is PUT to URL (curl -T) when not empty.
	UploadFile string
	// Timeout bounds the run; if zero, DefaultClientTimeout.
	Timeout time.Duration
}

// CurlResult is one curl transfer, from its -w '%{json}' report.
type CurlResult struct {
	Status        int                // HTTP status code
	Protocol      transport.Protocol // the transport the response came over
	DownloadBytes int64              // response body bytes received
	UploadBytes   int64              // request body bytes sent
	Total         time.Duration      // curl's time_total: start to end of the transfer
	FirstByte     time.Duration      // curl's time_starttransfer
	DownloadSpeed float64            // response body bytes per second, over Total
	UploadSpeed   float64            // request body bytes per second, over Total
	Process       ProcessTime        // curl's whole process: wall, user and system time
}

// curlFlags are the protocol flags of each transport curl speaks.
var curlFlags = map[transport.Protocol]string{
	transport.H1: "--http1.1", transport.H2C: "--http2-prior-knowledge",
	transport.H1TLS: "--http1.1", transport.H2: "--http2",
}

// curlArgs returns curl's command line for o.
func curlArgs(o CurlOptions) ([]string, error) {
	flag, ok := curlFlags[o.Protocol]
	if !ok {
		return nil, fmt.Errorf("curl does not speak %s", o.Protocol)
	}
	if _, err := o.Protocol.ParseURL(o.URL); err != nil {
		return nil, fmt.Errorf("curl: %w", err)
	}
	args := []string{"-sS", "-o", "/dev/null", "-w", "%{json}", flag}
	if o.CAFile != "" {
		args = append(args, "--cacert", o.CAFile)
	}
	if o.Insecure {
		args = append(args, "-k")
	}
	if o.UploadFile != "" {
		// No "Expect: 100-continue" wait: the body goes at once, as Go's does.
		args = append(args, "-T", o.UploadFile, "-H", "Expect:")
	}
	return append(args, "--", o.URL), nil
}

// RunCurl runs one curl transfer. A transfer curl reports as failed, a
// status other than 2xx or a response over another transport than
// o.Protocol is an error (with the result as far as curl got).
func RunCurl(ctx context.Context, o CurlOptions) (CurlResult, error) {
	args, err := curlArgs(o)
	if err != nil {
		return CurlResult{}, err
	}
	run, err := runTool(ctx, "curl", o.Timeout, args...)
	if err != nil {
		return CurlResult{}, err
	}
	res, err := ParseCurl(run.stdout, o.Protocol.Scheme())
	res.Process = run.time
	if err != nil {
		return res, fmt.Errorf("curl %s: %w (stderr: %s)", o.URL, err, lastLines(run.stderr, 3))
	}
	if res.Protocol != o.Protocol {
		return res, fmt.Errorf("curl %s: asked for %s, answered over %s", o.URL, o.Protocol, res.Protocol)
	}
	return res, nil
}

// curlJSON is the part of curl's %{json} that ParseCurl reads.
type curlJSON struct {
	ExitCode      *int    `json:"exitcode"`
	ErrorMsg      string  `json:"errormsg"`
	ResponseCode  int     `json:"response_code"`
	HTTPVersion   string  `json:"http_version"`
	SizeDownload  int64   `json:"size_download"`
	SizeUpload    int64   `json:"size_upload"`
	SpeedDownload float64 `json:"speed_download"`
	SpeedUpload   float64 `json:"speed_upload"`
	TimeTotal     float64 `json:"time_total"`
	TimeStart     float64 `json:"time_starttransfer"`
}

// ParseCurl reads the output of curl -w '%{json}' (curl 7.70 or later)
// for a URL of scheme "http" or "https". A transfer with a non-zero
// exitcode or a status other than 2xx is an error.
func ParseCurl(out []byte, scheme string) (CurlResult, error) {
	var j curlJSON
	if err := json.Unmarshal(out, &j); err != nil {
		return CurlResult{}, fmt.Errorf("read curl's -w %%{json}: %w", err)
	}
	if j.ExitCode == nil {
		return CurlResult{}, fmt.Errorf("curl's -w %%{json} has no exitcode: %.100q", out)
	}
	r := CurlResult{
		Status: j.ResponseCode, DownloadBytes: j.SizeDownload, UploadBytes: j.SizeUpload,
		Total: seconds(j.TimeTotal), FirstByte: seconds(j.TimeStart),
		DownloadSpeed: j.SpeedDownload, UploadSpeed: j.SpeedUpload,
	}
	if *j.ExitCode != 0 {
		return r, fmt.Errorf("curl exit %d: %s", *j.ExitCode, j.ErrorMsg)
	}
	var err error
	if r.Protocol, err = curlProtocol(j.HTTPVersion, scheme); err != nil {
		return r, err
	}
	if r.Status/100 != 2 {
		return r, fmt.Errorf("status %d", r.Status)
	}
	return r, nil
}

// curlProtocol maps curl's http_version and the URL's scheme to a transport.
func curlProtocol(version, scheme string) (transport.Protocol, error) {
	tls := scheme == "https"
	switch {
	case version == "1.1" && !tls:
		return transport.H1, nil
	case version == "1.1":
		return transport.H1TLS, nil
	case version == "2" && !tls:
		return transport.H2C, nil
	case version == "2":
		return transport.H2, nil
	case version == "3" && tls:
		return transport.H3, nil
	}
	return 0, fmt.Errorf("curl's http_version %q over %s is none of httpvs's transports", version, scheme)
}

// seconds converts a float number of seconds to a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
