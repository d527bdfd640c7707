#!/usr/bin/env node
// The baseline of the fs-read benchmark in plain Node (see bareClient.mjs).
// Usage: node bare-client.mjs <rounds> <n> <file>…   → prints {"<file>": {ms: [...], chars}, …} as JSON.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBare } from './bareClient.mjs';

const [rounds, n, ...files] = process.argv.slice(2);
const agentPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'read-agent.mjs');
const out = await measureBare({ node: process.execPath, agentPath, rounds: Number(rounds), n: Number(n), files });
process.stdout.write(JSON.stringify(out) + '\n');
