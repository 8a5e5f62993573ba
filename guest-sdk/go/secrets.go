package guest

import "strings"

// The PEM labels of private keys, between "-----BEGIN " and "-----".
var keyLabels = []string{
	"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY",
	"OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
}

// minKeyBody is the fewest base64 characters a key body must have.
const minKeyBody = 64

// FindPrivateKey finds a whole private key in text: a -----BEGIN <label>-----
// line, optional "Name: value" headers, at least 64 base64 characters of body
// and the matching -----END <label>----- line, with lines separated by
// newlines or by the two characters \n (a key pasted into JSON or .env). It
// returns the label ("OPENSSH PRIVATE KEY"). A bare marker (a grep for it, a
// doc that mentions it) is not a key. The same rule as the Rust SDK's
// secrets::find_private_key.
func FindPrivateKey(text string) (string, bool) {
	if !strings.Contains(text, "PRIVATE KEY") {
		return "", false
	}
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		for _, part := range strings.Split(line, `\n`) {
			lines = append(lines, strings.TrimRight(part, "\r"))
		}
	}
	for i, line := range lines {
		label, ok := beginLabel(line)
		if ok && hasKeyBody(lines[i+1:], label) {
			return label, true
		}
	}
	return "", false
}

func beginLabel(line string) (string, bool) {
	at := strings.Index(line, "-----BEGIN ")
	if at < 0 {
		return "", false
	}
	after := line[at+len("-----BEGIN "):]
	end := strings.Index(after, "-----")
	if end < 0 {
		return "", false
	}
	for _, label := range keyLabels {
		if after[:end] == label {
			return label, true
		}
	}
	return "", false
}

func hasKeyBody(lines []string, label string) bool {
	body := 0
	inHeaders := true
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if at := strings.Index(line, "-----END "); at >= 0 {
			rest := line[at+len("-----END "):]
			return strings.HasPrefix(rest, label+"-----") && body >= minKeyBody
		}
		if line == "" {
			continue
		}
		if inHeaders && isHeader(line) {
			continue
		}
		inHeaders = false
		data := strings.TrimPrefix(line, "=") // PGP's checksum line
		for i := 0; i < len(data); i++ {
			if !isBase64(data[i]) {
				return false
			}
		}
		body += len(data)
	}
	return false
}

func isHeader(line string) bool {
	name, _, ok := strings.Cut(line, ": ")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isAlnum(name[i]) && name[i] != '-' {
			return false
		}
	}
	return true
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isBase64(b byte) bool { return isAlnum(b) || b == '+' || b == '/' || b == '=' }
