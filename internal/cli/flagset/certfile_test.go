package flagset

import (
	"crypto/x509"
	"os"
	"regexp"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

func TestFingerprintAndPEM(t *testing.T) {
	cert, err := transport.SelfSigned("example.test")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^([0-9A-F]{2}:){31}[0-9A-F]{2}$`).MatchString(Fingerprint(cert)) {
		t.Fatalf("fingerprint %q", Fingerprint(cert))
	}
	f := t.TempDir() + "/c.pem"
	if err := os.WriteFile(f, transport.CertPEM(cert), 0o600); err != nil {
		t.Fatal(err)
	}
	pool, err := LoadCertPool(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "example.test"}); err != nil {
		t.Fatalf("cert does not verify against its own PEM: %v", err)
	}
}
