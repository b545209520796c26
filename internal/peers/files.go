package peers

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// The paths every server peer serves, the same as httpvs serve's, so that
// one URL path names the same workload at either server.
const (
	// SmallPath is a 2-byte object ("ok") for request-rate scenarios.
	SmallPath = "/small"
	// SinkPath takes PUT bodies where the peer can (Peer.Sink).
	SinkPath = "/sink"
)

// smallBody is what SmallPath holds, as httpvs serve's /small answers.
const smallBody = "ok"

// PayloadPath returns the path of the payload of size bytes:
// /bytes/<size in decimal>, as httpvs serve's.
func PayloadPath(size units.Bytes) string {
	return "/bytes/" + strconv.FormatInt(int64(size), 10)
}

// layout is a server's temporary directory and what Start wrote there.
type layout struct {
	dir      string // the temporary directory, removed by Stop
	www      string // document root
	certFile string // PEM certificate chain
	keyFile  string // PEM private key
	ports    []int  // loopback ports, as many as the peer's config asks for
}

// writeTree writes the document root (SmallPath, an empty sink file and a
// sparse file per size: zeros that cost no disk I/O to read) and the
// certificate's files into dir.
func writeTree(dir string, sizes []units.Bytes, cert tls.Certificate) (layout, error) {
	l := layout{dir: dir, www: filepath.Join(dir, "www"),
		certFile: filepath.Join(dir, "cert.pem"), keyFile: filepath.Join(dir, "key.pem")}
	if err := os.MkdirAll(filepath.Join(l.www, "bytes"), 0o755); err != nil {
		return l, err
	}
	if err := os.WriteFile(filepath.Join(l.www, "small"), []byte(smallBody), 0o644); err != nil {
		return l, err
	}
	if err := os.WriteFile(filepath.Join(l.www, "sink"), nil, 0o644); err != nil {
		return l, err
	}
	for _, size := range sizes {
		if size < 0 {
			return l, fmt.Errorf("negative payload size %d", size)
		}
		f, err := os.Create(filepath.Join(l.www, PayloadPath(size)))
		if err != nil {
			return l, err
		}
		err = f.Truncate(int64(size))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return l, fmt.Errorf("payload of %d bytes: %w", size, err)
		}
	}
	keyPEM, err := keyPEM(cert)
	if err != nil {
		return l, err
	}
	if err := os.WriteFile(l.certFile, transport.CertPEM(cert), 0o644); err != nil {
		return l, err
	}
	return l, os.WriteFile(l.keyFile, keyPEM, 0o600)
}

// keyPEM encodes cert's private key as PKCS #8 PEM, which OpenSSL (h2o,
// nginx, nghttpd) and Go (Caddy) all read.
func keyPEM(cert tls.Certificate) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("encode private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
