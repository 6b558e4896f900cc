export * from './users'
export * from './rbac'
export * from './organization'
