import { parentPort, workerData } from 'node:worker_threads'
import { checkpointWhileWritten, type CheckpointSettings } from './checkpointer'

// the thread of createCheckpointer (checkpointer.ts): checkpoints while the WAL changes, then ends
// by itself (its port closed, nothing keeps it), or when asked to
const { path, settings } = workerData as { path: string; settings: CheckpointSettings }
const port = parentPort!
const run = checkpointWhileWritten(path, settings, (count) => port.postMessage(count))
port.on('message', run.stop)
void run.done.then(() => port.close())
