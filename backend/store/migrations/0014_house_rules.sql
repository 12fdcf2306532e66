-- 0013_house_rules: the person's house rules per agent and project folder, sent to an agent that
-- takes a client system prompt (ACP sessionCapabilities.systemPrompt) when a session opens there.
-- folder is the session folder as the hub cleans it; text is never empty (clearing deletes the row)
-- and at most acp.MaxSystemPrompt bytes.
CREATE TABLE house_rules (
    agent_id   TEXT NOT NULL,
    folder     TEXT NOT NULL,
    text       TEXT NOT NULL CHECK (text <> ''),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (agent_id, folder)
);
