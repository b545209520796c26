package flagset

// The certificate files the CLI's --cert, --key and --cacert name, and a
// certificate's fingerprint as serve's banner prints it.

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// LoadKeyPair reads a PEM certificate chain and key.
func LoadKeyPair(certFile, keyFile string) (tls.Certificate, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("load certificate %s and key %s: %w", certFile, keyFile, err)
	}
	return cert, nil
}

// Fingerprint returns the SHA-256 of the certificate's leaf as colon-separated
// upper-case hex, as browsers and openssl print it.
func Fingerprint(cert tls.Certificate) string {
	if len(cert.Certificate) == 0 {
		return ""
	}
	sum := sha256.Sum256(cert.Certificate[0])
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	var b strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(h[i : i+2])
	}
	return b.String()
}

// LoadCertPool reads PEM certificates from file into a new pool.
func LoadCertPool(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", file)
	}
	return pool, nil
}
