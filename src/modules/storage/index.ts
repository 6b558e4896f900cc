import { Elysia } from 'elysia'
import { authenticate, type AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { streamedMultipart } from '../../http/json-body'
import type { TokenService } from '../auth/tokens'
import type { AccessResolver } from '../rbac/access'
import {
  BatchDeleteBody,
  BatchDeleteResult,
  BatchUploadResult,
  ContentParams,
  ContentQuery,
  DeleteBody,
  DeleteResult,
  FileDetail,
  FileInfoQuery,
  FileList,
  FileListQuery,
  PresignBody,
  PresignResult,
  StorageConfigResult,
} from './model'
import type { StorageService } from './service'

const PREFIX = '/api/v1/storage'

const detail = (summary: string, extra: Record<string, unknown> = {}) => ({ tags: ['Files'], summary, ...extra })

const multipartDoc = (field: string, many: boolean) => ({
  requestBody: {
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [field],
          properties: {
            [field]: many ? { type: 'array', items: { type: 'string', format: 'binary' } } : { type: 'string', format: 'binary' },
            folder: { type: 'string', description: 'e.g. contracts/2024' },
            description: { type: 'string' },
            is_public: { type: 'boolean' },
          },
        },
      },
    },
  },
})

export const storageController = (
  guard: AuthGuard,
  reply: Replier,
  storage: StorageService,
  auth: { tokens: TokenService; access: AccessResolver },
) => {
  // Elysia answers HEAD with the GET route; the method says whether to send and count the bytes
  const serve = ({
    params,
    query,
    headers,
    request,
  }: {
    params: { id: string }
    query: { signature?: string; expires?: number }
    headers: Record<string, string | undefined>
    request: Request
  }) =>
    storage.content(
      params.id,
      {
        signature: query.signature,
        expires: query.expires,
        principal: () => authenticate(headers.authorization, auth.tokens, auth.access),
      },
      { range: headers.range, ifNoneMatch: headers['if-none-match'] },
      request.method === 'HEAD',
    )
  const contentHook = (summary: string) => ({
    params: ContentParams,
    query: ContentQuery,
    detail: detail(summary, { security: [{ bearer: [] }, {}] }),
  })

  return new Elysia({ name: 'storage', prefix: PREFIX })
    .use(guard)
    .onBeforeHandle(() => storage.ensureAvailable())
    .post('/upload', async ({ request, actor, set }) => reply.created(set, await storage.upload(request, actor), 'File uploaded'), {
      auth: true,
      parse: streamedMultipart(`${PREFIX}/upload`),
      response: { 201: Envelope(FileDetail) },
      detail: detail('Upload one file (multipart field "file"), streamed to storage', multipartDoc('file', false)),
    })
    .post('/batch-upload', async ({ request, actor }) => reply.ok(await storage.batchUpload(request, actor), 'Files processed'), {
      auth: true,
      parse: streamedMultipart(`${PREFIX}/batch-upload`),
      response: Envelope(BatchUploadResult),
      detail: detail('Upload up to 20 files (multipart field "files"); each succeeds or fails on its own', multipartDoc('files', true)),
    })
    .get('/file-info', async ({ query, principal }) => reply.ok(await storage.info(query.file_id, principal)), {
      auth: true,
      query: FileInfoQuery,
      response: Envelope(FileDetail),
      detail: detail('One file in full'),
    })
    .get('/files', async ({ query, principal }) => reply.ok(await storage.list(query, principal)), {
      auth: true,
      query: FileListQuery,
      response: Envelope(FileList),
      detail: detail('Your files and public ones (files:manage: all), with a summary'),
    })
    .delete(
      '/delete',
      async ({ body, principal, actor }) => reply.ok(await storage.remove(body.file_id, principal, actor), 'File deleted'),
      {
        auth: true,
        body: DeleteBody,
        response: Envelope(DeleteResult),
        detail: detail('Delete a file: its bytes and its metadata'),
      },
    )
    .delete(
      '/batch-delete',
      async ({ body, principal, actor }) => reply.ok(await storage.batchRemove(body.file_ids, principal, actor), 'Files processed'),
      {
        auth: true,
        body: BatchDeleteBody,
        response: Envelope(BatchDeleteResult),
        detail: detail('Delete up to 100 files; each succeeds or fails on its own'),
      },
    )
    .post('/presigned-url', async ({ body, principal }) => reply.ok(await storage.presign(body.file_id, body.expires_in, principal)), {
      auth: true,
      body: PresignBody,
      response: Envelope(PresignResult),
      detail: detail('A signed download URL valid for expires_in seconds (1 to 604800, default 3600)'),
    })
    .get('/config', () => reply.ok(storage.config()), {
      auth: true,
      response: Envelope(StorageConfigResult),
      detail: detail('Upload limits, allowed types and what the running store supports'),
    })
    .get(
      '/files/:id/content',
      serve,
      contentHook('The bytes of a file (HEAD: the headers only): bearer token, a signed link, or none for a public file; supports Range'),
    )
}
