import type { StorageConfig } from '../../config'
import { createLocalStore } from './local-store'
import { createS3Store } from './s3-store'
import type { ObjectStore } from './store'

/** The object store the configuration names: a local folder or an S3 bucket. */
export function openStore(config: StorageConfig): ObjectStore {
  return config.kind === 'file' ? createLocalStore(config.dir) : createS3Store(config)
}
