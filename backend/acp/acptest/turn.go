package acptest

// OneMessageTurn is the script of an agent that answers initialize and session/new, then
// answers one prompt with text as a single agent message chunk and ends the turn with
// end_turn: the shortest agent that puts a given line on the wire (the huge-line tests and
// benchmarks).
func OneMessageTurn(text string) Script {
	return Script{
		{Expect: "initialize"}, {Reply: []byte(`{"protocolVersion":1,"agentCapabilities":{}}`)},
		{Expect: "session/new"}, {Reply: []byte(`{"sessionId":"h1"}`)},
		{Expect: "session/prompt"},
		{Update: mustJSON(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": text}})},
		{Reply: []byte(`{"stopReason":"end_turn"}`)},
	}
}
