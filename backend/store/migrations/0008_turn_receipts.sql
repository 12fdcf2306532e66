-- 0008_turn_receipts: what each turn did (files changed, commands, decisions, tokens, time),
-- as the engine's Receipt JSON; '' for turns ended before receipts existed. The store keeps it
-- opaque, like an entry's body; the usage ledger reads it with json_extract.
ALTER TABLE turns ADD COLUMN receipt TEXT NOT NULL DEFAULT '';
