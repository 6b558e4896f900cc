/** The OpenAPI request body of an import's multipart form: one CSV file in the field "file". */
export const uploadForm = (what: string, maxBytes: number, maxRows: number) => ({
  requestBody: {
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object' as const,
          required: ['file'],
          properties: {
            file: {
              type: 'string' as const,
              format: 'binary',
              description: `a CSV file (RFC 4180, UTF-8, a byte-order mark is fine) of ${what}, at most ${maxBytes / 1024 / 1024} MiB and ${maxRows.toLocaleString('en')} rows`,
            },
          },
        },
      },
    },
  },
})
