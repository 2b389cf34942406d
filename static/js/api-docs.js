// The API reference: Swagger UI reads the OpenAPI document the app serves. No validator badge (it
// would send the document to a public validator) and no top bar; everything comes from this server.
(function () {
  var root = document.getElementById("swagger-ui");
  if (!root || typeof SwaggerUIBundle === "undefined") return;
  window.ui = SwaggerUIBundle({
    url: root.dataset.spec,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    tryItOutEnabled: false,
  });
})();
