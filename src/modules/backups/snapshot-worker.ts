import { parentPort, workerData } from 'node:worker_threads'
import { snapshotDatabase } from './snapshot'

// the worker thread of takeSnapshot (snapshot.ts)
const { source, target } = workerData as { source: string; target: string }
try {
  parentPort!.postMessage({ facts: snapshotDatabase(source, target) })
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) })
}
