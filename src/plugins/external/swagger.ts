// Swagger UI at /docs, serving openapi.yaml as written (static mode): the document callers
// read is the one the routes are built from. One addition: this server itself as the first
// of `servers`, so that "Try it out" calls the origin the page came from (the API sends no
// CORS headers, so a page cannot call another origin).
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import spec from '../../../generated/openapi.json' with { type: 'json' }

export default fp(
  async (app) => {
    const document = { ...spec, servers: [{ url: '/', description: 'This server' }, ...spec.servers] }
    await app.register(swagger, { mode: 'static', specification: { document: document as never } })
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  },
  { name: 'swagger' },
)
