export default defineBackground(() => {
  // Wiring of the runtime, the store and the page-hook registrations lands with the foundation issues.
});
