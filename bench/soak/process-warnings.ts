import type { ChildProcess } from 'node:child_process';

const KEPT = 50;

/** The warnings and errors the processes log (JSON lines of level warn and above), for the summary. */
export class ProcessWarnings {
  readonly lines: string[] = [];
  count = 0;

  follow(name: string, child: ChildProcess): void {
    let pending = '';
    const onData = (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!/"level":"(?:warn|error|fatal)"/.test(line)) continue;
        // 4xx answers are logged as warnings: the soak asks for them.
        if (/"level":"warn"/.test(line) && line.includes('"msg":"request completed"')) continue;
        this.count += 1;
        if (this.lines.length < KEPT) this.lines.push(`${name}: ${line.slice(0, 400)}`);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  }
}
