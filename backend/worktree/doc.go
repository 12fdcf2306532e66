// Package worktree gives a session a git worktree of its project of its own, so that agents
// working at once on one repository write neither over each other nor over the person's own
// work, and takes the worktree away again (issue 33).
//
// Guarantees:
//   - All git work goes through the git CLI (Git), never a re-implementation of it, with the
//     repository's hooks and file-system monitor off for every call (core.hooksPath=/dev/null,
//     core.fsmonitor=false): agentdesk's own operations run nothing the repository configures.
//   - The person's repository gains only the worktree's entry (in .git/worktrees) and its branch
//     agentdesk/<name>; their HEAD, index, stash, other branches and files are never touched
//     (TestCreateAndDiscardLeaveThePersonsRepositoryAsItWas).
//   - A worktree starts from the commit the person's HEAD names at that moment (its id is kept as
//     Tree.Base), not from a default branch; a project below the repository's top is the same
//     folder below the worktree's top.
//   - Worktrees live in agentdesk's data folder (Manager's root), never inside the person's tree,
//     one folder per repository (its name and a hash of its path) and per session.
//   - Names are checked before git sees them: a name with a path separator, "..", a control
//     character or anything but lower-case letters, digits and dashes is refused.
//   - Discard removes the worktree and its branch and nothing else; git worktree list and the
//     branch list are then as they were before Create.
//   - Review, Apply and Commit read the session's work through a snapshot made with a private
//     index: the agent's own staging is left alone.
//   - Apply writes only inside the person's tree (an os.Root of it), never commits, stages or
//     moves HEAD, writes nothing when any file conflicts, and writes all of its files or none,
//     across a crash too (Recover finishes a journal left behind).
package worktree
