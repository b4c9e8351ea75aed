import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject, it } from "vitest";
import { eventually } from "@/test/webhook-receiver";

/** Whether any process of the group is still there (signal 0 checks without sending anything). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// npm runs a script through `sh -c`, which (dash) neither execs the command nor passes a signal on: SIGTERM to npm
// ended npm and the shell and left the app running, re-parented. The long-running scripts exec their command, so the
// signal npm passes on reaches the process that stops gracefully. The worker stands for the three (dev, start,
// worker): it starts fastest.
it("SIGTERM to `npm run worker` stops the whole process tree", async () => {
  const databaseUrl = inject("databaseUrl");
  const child = spawn("npm", ["run", "worker"], {
    // Its own process group, so that what is left of it can be found (and cleaned up) by the group's id.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-npm-")) }),
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const pgid = child.pid!;
  try {
    await eventually(() => output.includes("worker: running"), 90_000, `the worker to start (output: ${output})`);
    child.kill("SIGTERM");
    await eventually(() => !groupAlive(pgid), 30_000, "every process of `npm run worker` to exit");
  } finally {
    if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
  }
}, 150_000);
