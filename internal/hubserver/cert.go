package hubserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/hubapi"
)

// Files of the hub's own certificate in its folder.
const (
	CertFile = "hub-cert.pem"
	KeyFile  = "hub-key.pem"
)

// Cert is the hub's TLS certificate and the fingerprint nodes pin.
type Cert struct {
	TLS         tls.Certificate
	Fingerprint string
}

// LoadCert reads the certificate and key the admin names.
func LoadCert(certFile, keyFile string) (Cert, error) {
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return Cert{}, fmt.Errorf("hub certificate: %w", err)
	}
	return Cert{TLS: c, Fingerprint: hubapi.Fingerprint(c.Certificate[0])}, nil
}

// OwnCert reads the hub's own certificate from dir, or makes a
// self-signed one there (key 0600) on first start, for names (host
// names or addresses). Kept, it keeps its fingerprint: the one nodes
// pinned.
func OwnCert(dir string, names []string) (Cert, error) {
	cf, kf := filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile)
	if _, err := os.Stat(cf); err == nil {
		return LoadCert(cf, kf)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Cert{}, fmt.Errorf("hub certificate: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Cert{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return Cert{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "sayso hub"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, n := range append([]string{"localhost", "127.0.0.1"}, names...) {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return Cert{}, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return Cert{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Cert{}, err
	}
	if err := os.WriteFile(kf, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return Cert{}, fmt.Errorf("keep the hub's key: %w", err)
	}
	if err := os.WriteFile(cf, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return Cert{}, fmt.Errorf("keep the hub's certificate: %w", err)
	}
	return LoadCert(cf, kf)
}

// CertFingerprint is the fingerprint of the first certificate in a PEM
// file: the one a hub serving it hands nodes.
func CertFingerprint(certFile string) (string, error) {
	b, err := os.ReadFile(certFile)
	if err != nil {
		return "", fmt.Errorf("hub certificate: %w", err)
	}
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return "", fmt.Errorf("hub certificate %s: no certificate in it", certFile)
		}
		if blk.Type == "CERTIFICATE" {
			if _, err := x509.ParseCertificate(blk.Bytes); err != nil {
				return "", fmt.Errorf("hub certificate %s: %w", certFile, err)
			}
			return hubapi.Fingerprint(blk.Bytes), nil
		}
	}
}
