import { Elysia } from 'elysia'
import { authenticate, type AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { streamedMultipart } from '../../http/json-body'
import type { LocalePlugin } from '../../http/locale'
import { binaryResponses, errors, type ErrorNotes } from '../../http/openapi'
import type { TokenService } from '../auth/tokens'
import type { AccessResolver } from '../rbac/access'
import { say } from './messages'
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

/** Every file route answers 503 while the store does not (`ensureAvailable`). */
const detail = (summary: string, description: string, notes: ErrorNotes = {}, extra: Record<string, unknown> = {}) => ({
  tags: ['Files'],
  summary,
  description,
  ...errors({ 503: 'The file store does not answer', ...notes }),
  ...extra,
})

const NOT_VISIBLE = 'No such file, or one you may not see (another account’s private file)'

/** The upload form; the examples keep a file private unless the sender says otherwise. */
const multipartDoc = (field: string, many: boolean) => ({
  requestBody: {
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [field],
          properties: {
            [field]: many
              ? { type: 'array', items: { type: 'string', format: 'binary' }, maxItems: 20, description: '1 to 20 files' }
              : { type: 'string', format: 'binary' },
            folder: {
              type: 'string',
              maxLength: 255,
              description: 'names of letters, digits, spaces, ".", "_" or "-" joined by "/"; none when left out',
              examples: ['contracts/2024'],
            },
            description: { type: 'string', maxLength: 500, examples: ['Signed employment contract'] },
            is_public: {
              type: 'boolean',
              default: false,
              description: 'true: anyone signed in may read it, and its content needs no token',
              examples: [false],
            },
          },
        },
      },
    },
  },
})

const UPLOAD_ERRORS = (what: string): ErrorNotes => ({
  400: `the form is not multipart/form-data, has no ${what}, or its folder, description or is_public is invalid`,
  413: 'A file is larger than MAX_FILE_SIZE (nothing is kept)',
  415: 'The content’s type is not allowed, or the name’s extension disagrees with it',
  507: 'The account’s files and this one would pass UPLOAD_QUOTA; the message says how much is used',
})

export const storageController = (
  guard: AuthGuard,
  reply: Replier,
  storage: StorageService,
  auth: { tokens: TokenService; access: AccessResolver },
  locale: LocalePlugin,
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
    detail: detail(
      summary,
      'With `expires` and `signature` (from POST /presigned-url) no token is needed; a public file needs none either. `Range: bytes=a-b` asks for part of it; `If-None-Match` with the ETag answers 304.',
      {
        400: 'the id is not a UUID, or expires is not a whole number',
        401: 'The file is not public, and neither a token nor a signed link was sent',
        403: 'The signed link is invalid or has expired',
        404: NOT_VISIBLE,
      },
      { security: [{ bearer: [] }, {}], responses: binaryResponses() },
    ),
  })

  return new Elysia({ name: 'storage', prefix: PREFIX })
    .use(guard)
    .use(locale)
    .onBeforeHandle(() => storage.ensureAvailable())
    .post('/upload', async ({ request, actor, set }) => reply.created(set, await storage.upload(request, actor), say.uploaded()), {
      auth: true,
      parse: streamedMultipart(`${PREFIX}/upload`),
      response: { 201: Envelope(FileDetail) },
      detail: detail(
        'Upload one file (multipart field "file"), streamed to storage',
        'The type is read from the content’s first bytes. The file is private unless `is_public` is true.',
        UPLOAD_ERRORS('field "file"'),
        multipartDoc('file', false),
      ),
    })
    .post('/batch-upload', async ({ request, actor, locale }) => reply.ok(await storage.batchUpload(request, actor, locale), say.processed()), {
      auth: true,
      parse: streamedMultipart(`${PREFIX}/batch-upload`),
      response: Envelope(BatchUploadResult),
      detail: detail(
        'Upload up to 20 files (multipart field "files"); each succeeds or fails on its own',
        'A file that is too large, of a type not allowed or over the quota is a failed item with its error; the others are kept.',
        { 400: 'the form is not multipart/form-data, has no files or more than 20, or its folder, description or is_public is invalid' },
        multipartDoc('files', true),
      ),
    })
    .get('/file-info', async ({ query, principal }) => reply.ok(await storage.info(query.file_id, principal)), {
      auth: true,
      query: FileInfoQuery,
      response: Envelope(FileDetail),
      detail: detail('One file in full', 'With a signed download URL valid for an hour.', { 404: NOT_VISIBLE }),
    })
    .get('/files', async ({ query, principal }) => reply.ok(await storage.list(query, principal)), {
      auth: true,
      query: FileListQuery,
      response: Envelope(FileList),
      detail: detail(
        'Your files and public ones (files:manage: all), with a summary',
        'The summary counts the files the filters select, on every page.',
      ),
    })
    .delete(
      '/delete',
      async ({ body, principal, actor }) => reply.ok(await storage.remove(body.file_id, principal, actor), say.deleted()),
      {
        auth: true,
        body: DeleteBody,
        response: Envelope(DeleteResult),
        detail: detail('Delete a file: its bytes and its metadata', 'Frees its bytes from the uploader’s quota.', {
          403: 'Only the uploader or a holder of files:manage may delete it',
          404: NOT_VISIBLE,
        }),
      },
    )
    .delete(
      '/batch-delete',
      async ({ body, principal, actor, locale }) => reply.ok(await storage.batchRemove(body.file_ids, principal, actor, locale), say.processed()),
      {
        auth: true,
        body: BatchDeleteBody,
        response: Envelope(BatchDeleteResult),
        detail: detail(
          'Delete up to 100 files; each succeeds or fails on its own',
          'A file that does not exist or that you may not delete is a failed item with its error.',
        ),
      },
    )
    .post('/presigned-url', async ({ body, principal }) => reply.ok(await storage.presign(body.file_id, body.expires_in, principal)), {
      auth: true,
      body: PresignBody,
      response: Envelope(PresignResult),
      detail: detail(
        'A signed download URL valid for expires_in seconds (1 to 604800, default 3600)',
        'The URL works without a token until it expires: on local disk a link to GET /files/{id}/content, on S3 a presigned URL.',
        { 403: 'Only the uploader or a holder of files:manage may sign it', 404: NOT_VISIBLE },
      ),
    })
    .get('/config', ({ locale }) => reply.ok(storage.config(locale)), {
      auth: true,
      response: Envelope(StorageConfigResult),
      detail: detail(
        'Upload limits, allowed types and what the running store supports',
        'MAX_FILE_SIZE and UPLOAD_QUOTA as set, and the types uploads may have.',
      ),
    })
    .get(
      '/files/:id/content',
      serve,
      contentHook('The bytes of a file (HEAD: the headers only): bearer token, a signed link, or none for a public file; supports Range'),
    )
}
