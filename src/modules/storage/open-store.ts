import type { StorageConfig } from '../../config'
import { createLocalStore } from './local-store'
import type { ObjectStore } from './store'

/**
 * The object store the configuration names: a local folder or an S3 bucket. The AWS SDK is loaded
 * only for a bucket: on the embedded defaults it would add about 55 ms and 7 MB to every start.
 */
export function openStore(config: StorageConfig): ObjectStore {
  if (config.kind === 'file') return createLocalStore(config.dir)
  const { createS3Store } = require('./s3-store') as typeof import('./s3-store')
  return createS3Store(config)
}
