// Swagger UI at /docs, serving openapi.yaml as written (static mode): the document callers
// read is the one the routes are built from.
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import spec from '../../../generated/openapi.json' with { type: 'json' }

export default fp(
  async (app) => {
    await app.register(swagger, { mode: 'static', specification: { document: spec as never } })
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  },
  { name: 'swagger' },
)
