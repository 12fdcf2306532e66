package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// undecodable is a line that looks like a request or a response (a JSON object with an id) but
// does not decode as one: nested deeper than encoding/json goes (10,000 levels: json.Unmarshal
// then fails on the whole line, "exceeded max depth"), or a field of the wrong type. Skipped as
// noise, its request would never be answered and its call never failed; instead the inbound loop
// answers the request -32600 and fails the call with the reason (see Conn.refuse).
type undecodable struct {
	err     error
	request bool // it has a method field: a request, else a response
}

// salvage finds the top-level id and method of line, a JSON object that json.Unmarshal refused:
// it walks the object's members without decoding their values (a value is skipped by counting
// brackets outside strings, in constant memory however deep it is), so only id and method are
// decoded. id is nil when line has no id that is valid JSON; request says it has a method.
func salvage(line []byte) (id json.RawMessage, method string, request bool) {
	i := skipSpace(line, 0)
	if i == len(line) || line[i] != '{' {
		return nil, "", false
	}
	i++
	for {
		i = skipSpace(line, i)
		end, ok := skipString(line, i)
		if !ok {
			return id, method, request
		}
		var key string
		if json.Unmarshal(line[i:end], &key) != nil {
			return id, method, request
		}
		i = skipSpace(line, end)
		if i == len(line) || line[i] != ':' {
			return id, method, request
		}
		i = skipSpace(line, i+1)
		end = skipValue(line, i)
		value := bytes.TrimSpace(line[i:end])
		switch key {
		case "id":
			if json.Valid(value) {
				id = json.RawMessage(value)
			}
		case "method":
			request = true
			_ = json.Unmarshal(value, &method)
		}
		i = skipSpace(line, end)
		if i == len(line) || line[i] != ',' {
			return id, method, request
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i], if one does.
func skipString(b []byte, i int) (int, bool) {
	if i == len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the value that starts at b[i]: at the ',' or the closing
// bracket that ends it at its own level, or len(b).
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, ok := skipString(b, i)
			if !ok {
				return len(b)
			}
			if depth == 0 {
				return end
			}
			i = end - 1
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}
