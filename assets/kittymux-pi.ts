// kittymux integration 1: reports this pi session to kittymux, as an agent's
// hooks do: `kittymux hook pi EVENT` with the session's id, so a kitty
// restored after a crash resumes each window's own conversation.
// Installed by `kittymux integration install pi`; `kittymux integration
// uninstall pi` removes it. Edits here are replaced by the next install.
import { spawn } from "node:child_process";

const KITTYMUX = "__KITTYMUX__";

export default function (pi: any) {
	const report = (event: string, ctx: any, source?: string) => {
		// Only inside a kitty window, and only a session kept in a file
		// (--no-session keeps none: there is nothing to resume).
		if (!process.env.KITTY_WINDOW_ID) return;
		try {
			const sm = ctx?.sessionManager;
			const id = sm?.getSessionId?.();
			if (!id || !sm?.getSessionFile?.()) return;
			// pi sets its process title, so the system shows `pi` alone:
			// on a session start it also says the argv it was started with
			// (node, its options, the script, pi's flags), kept for this
			// process only.
			const argv = event === "SessionStart" ? [process.argv[0], ...process.execArgv, ...process.argv.slice(1)] : undefined;
			const payload = { session_id: id, cwd: ctx?.cwd ?? process.cwd(), hook_event_name: event, source, argv };
			const child = spawn(KITTYMUX, ["hook", "pi", event, "--integration=1"], {
				stdio: ["pipe", "ignore", "ignore"],
			});
			child.on("error", () => {});
			child.stdin?.on("error", () => {});
			child.stdin?.end(JSON.stringify(payload));
			child.unref();
		} catch {
			// Never in pi's way.
		}
	};
	pi.on("session_start", (event: any, ctx: any) => report("SessionStart", ctx, event?.reason));
	pi.on("agent_start", (_event: any, ctx: any) => report("UserPromptSubmit", ctx));
	pi.on("agent_end", (_event: any, ctx: any) => report("Stop", ctx));
}
