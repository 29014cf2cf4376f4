/*
 * The API reference page: Swagger UI over the agent's own /openapi.json. A file rather than an inline
 * script, so the page's Content-Security-Policy can stay `script-src 'self'`.
 */
/* global SwaggerUIBundle, SwaggerUIStandalonePreset */

/** The standalone layout's top bar only loads other documents by URL: this page shows the agent's. */
const NoTopbar = () => ({ components: { Topbar: () => null } });

window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl, NoTopbar],
    layout: "StandaloneLayout",
    // no badge fetched from validator.swagger.io: the station LAN has no internet, and nothing leaves it
    validatorUrl: null,
    // a token obtained here lives as long as the page, never in the browser's storage
    persistAuthorization: false,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    filter: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
  });
});
