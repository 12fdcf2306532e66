package elicit

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// MaxURL bounds a url elicitation's URL, in bytes.
const MaxURL = 8 << 10

// CheckURL accepts only absolute http and https URLs with a host, and returns the host
// as a person should read it: an internationalised name in punycode, so that a look-alike
// host is not disguised by its script.
func CheckURL(raw string) (host string, err error) {
	if raw == "" || len(raw) > MaxURL {
		return "", fmt.Errorf("url must be 1 to %d bytes", MaxURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("url does not parse")
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return "", fmt.Errorf("url scheme %q is not allowed (only http and https)", u.Scheme)
	}
	if u.Hostname() == "" {
		return "", errors.New("url has no host")
	}
	if u.User != nil {
		return "", errors.New("url must not carry a user name or password")
	}
	host = u.Hostname()
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String()
		if ip.To4() == nil {
			host = "[" + host + "]"
		}
	} else if host, err = idna.Lookup.ToASCII(host); err != nil {
		return "", fmt.Errorf("url host %q is not a valid host name", u.Hostname())
	}
	if p := u.Port(); p != "" {
		host += ":" + p
	}
	return host, nil
}
