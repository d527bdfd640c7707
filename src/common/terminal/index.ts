// The terminal model without VS Code: bounded output, spawn plan, line ends, exit status.
export * from './ansi';
export * from './crlf';
export * from './exitStatus';
export * from './mirrorQueue';
export * from './outputBuffer';
export * from './procStat';
export * from './spawnPlan';
export * from './agentMeta';
export * from './sgr';
