export * from './users'
export * from './rbac'
export * from './organization'
export * from './audit'
