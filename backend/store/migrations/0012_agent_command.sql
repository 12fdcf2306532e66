-- 0012_agent_command: a session started with a command line of the person's (`--agent-cmd`, agent
-- id "custom") keeps that line as typed, so that continuing it starts the same command. Variables
-- stay unexpanded ($TOKEN is expanded again from the continuing process's environment), so a secret
-- passed that way is never written here. '' for every other agent, which the catalog finds by id.
ALTER TABLE sessions ADD COLUMN agent_cmd TEXT NOT NULL DEFAULT '';
