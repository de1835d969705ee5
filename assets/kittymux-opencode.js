// kittymux integration 1: reports this opencode session to kittymux, as an
// agent's hooks do: `kittymux hook opencode EVENT` with the session's id, so
// a kitty restored after a crash resumes each window's own conversation.
// Installed by `kittymux integration install opencode`; `kittymux
// integration uninstall opencode` removes it. Edits here are replaced by the
// next install.
import { spawn } from "node:child_process";

const KITTYMUX = "__KITTYMUX__";

export const KittymuxPlugin = async ({ directory }) => {
	// A subagent's session is not the window's conversation.
	const children = new Set();
	const report = (event, id, cwd) => {
		if (!process.env.KITTY_WINDOW_ID || !id || children.has(id)) return;
		try {
			const payload = { session_id: id, cwd: cwd || directory || process.cwd(), hook_event_name: event };
			const child = spawn(KITTYMUX, ["hook", "opencode", event, "--integration=1"], {
				stdio: ["pipe", "ignore", "ignore"],
			});
			child.on("error", () => {});
			child.stdin?.on("error", () => {});
			child.stdin?.end(JSON.stringify(payload));
			child.unref();
		} catch {
			// Never in opencode's way.
		}
	};
	return {
		event: async ({ event }) => {
			const p = event?.properties ?? {};
			if (event?.type === "session.created" && p.info?.id) {
				if (p.info.parentID) {
					children.add(p.info.id);
					return;
				}
				report("SessionStart", p.info.id, p.info.directory);
			} else if (event?.type === "session.idle") {
				report("Stop", p.sessionID);
			}
		},
		"chat.message": async (input) => {
			report("UserPromptSubmit", input?.sessionID);
		},
	};
};
