-- 0010_usage_index: the usage ledger (usage.go) sums turns with a GROUP BY over plain columns
-- instead of parsing every turn's receipt JSON. The columns copy the receipt's wallMs, tokens
-- and cost; triggers keep them in step with turns.receipt whatever writes it (a turn's end, a
-- session copied by a fork). NULL means the agent reported nothing (tokens) or nothing was
-- spent that it said (cost); wall_ms NULL means "use ended_at - started_at".
ALTER TABLE turns ADD COLUMN wall_ms INTEGER;
ALTER TABLE turns ADD COLUMN tokens_in INTEGER;
ALTER TABLE turns ADD COLUMN tokens_out INTEGER;
ALTER TABLE turns ADD COLUMN tokens_total INTEGER;
ALTER TABLE turns ADD COLUMN cost REAL;
ALTER TABLE turns ADD COLUMN currency TEXT NOT NULL DEFAULT '';

-- The ledger reads a time range of turns across all sessions.
CREATE INDEX turns_started ON turns (started_at);

CREATE TRIGGER turns_usage_insert AFTER INSERT ON turns
WHEN new.receipt != '' AND json_valid(new.receipt) BEGIN
    UPDATE turns SET
        wall_ms      = json_extract(new.receipt, '$.wallMs'),
        tokens_in    = json_extract(new.receipt, '$.tokens.input'),
        tokens_out   = json_extract(new.receipt, '$.tokens.output'),
        tokens_total = json_extract(new.receipt, '$.tokens.total'),
        cost         = json_extract(new.receipt, '$.cost.amount'),
        currency     = coalesce(json_extract(new.receipt, '$.cost.currency'), '')
    WHERE rowid = new.rowid;
END;
CREATE TRIGGER turns_usage_update AFTER UPDATE OF receipt ON turns
WHEN new.receipt != '' AND json_valid(new.receipt) BEGIN
    UPDATE turns SET
        wall_ms      = json_extract(new.receipt, '$.wallMs'),
        tokens_in    = json_extract(new.receipt, '$.tokens.input'),
        tokens_out   = json_extract(new.receipt, '$.tokens.output'),
        tokens_total = json_extract(new.receipt, '$.tokens.total'),
        cost         = json_extract(new.receipt, '$.cost.amount'),
        currency     = coalesce(json_extract(new.receipt, '$.cost.currency'), '')
    WHERE rowid = new.rowid;
END;

-- Turns saved with a receipt before this migration.
UPDATE turns SET receipt = receipt WHERE receipt != '' AND json_valid(receipt);

-- Turns saved before receipts: what the journal kept. The last prompt response of the turn's
-- window gives its tokens (ACP's PromptResponse usage); its cost is the growth of usage_update's
-- cost over the window (from the last report before it). One scan of the journal picks the few
-- messages that can matter.
CREATE TEMP TABLE usage_journal AS
SELECT session_id, seq, at, json FROM messages
WHERE direction = 'in' AND (instr(json, '"usage_update"') > 0 OR instr(json, '"stopReason"') > 0)
    AND json_valid(json);
CREATE INDEX temp.usage_journal_at ON usage_journal (session_id, at);

UPDATE turns SET
    tokens_in    = (SELECT json_extract(j.json, '$.result.usage.inputTokens') FROM usage_journal j
                    WHERE j.session_id = turns.session_id AND j.at BETWEEN turns.started_at AND turns.ended_at
                        AND json_type(j.json, '$.result.usage') = 'object' ORDER BY j.seq DESC LIMIT 1),
    tokens_out   = (SELECT json_extract(j.json, '$.result.usage.outputTokens') FROM usage_journal j
                    WHERE j.session_id = turns.session_id AND j.at BETWEEN turns.started_at AND turns.ended_at
                        AND json_type(j.json, '$.result.usage') = 'object' ORDER BY j.seq DESC LIMIT 1),
    tokens_total = (SELECT json_extract(j.json, '$.result.usage.totalTokens') FROM usage_journal j
                    WHERE j.session_id = turns.session_id AND j.at BETWEEN turns.started_at AND turns.ended_at
                        AND json_type(j.json, '$.result.usage') = 'object' ORDER BY j.seq DESC LIMIT 1)
WHERE receipt = '' AND ended_at IS NOT NULL;

UPDATE turns SET
    cost = (SELECT json_extract(j.json, '$.params.update.cost.amount') FROM usage_journal j
            WHERE j.session_id = turns.session_id AND j.at BETWEEN turns.started_at AND turns.ended_at
                AND json_type(j.json, '$.params.update.cost.amount') IN ('integer', 'real')
            ORDER BY j.seq DESC LIMIT 1)
        - coalesce((SELECT json_extract(j.json, '$.params.update.cost.amount') FROM usage_journal j
            WHERE j.session_id = turns.session_id AND j.at < turns.started_at
                AND json_type(j.json, '$.params.update.cost.amount') IN ('integer', 'real')
            ORDER BY j.seq DESC LIMIT 1), 0),
    currency = coalesce((SELECT json_extract(j.json, '$.params.update.cost.currency') FROM usage_journal j
            WHERE j.session_id = turns.session_id AND j.at BETWEEN turns.started_at AND turns.ended_at
                AND json_type(j.json, '$.params.update.cost.amount') IN ('integer', 'real')
            ORDER BY j.seq DESC LIMIT 1), '')
WHERE receipt = '' AND ended_at IS NOT NULL;

DROP TABLE temp.usage_journal;
