/** The build-time New Jersey map served by `scripts/build/nj-map-plugin.ts`. */
declare module 'virtual:nj-map' {
  const map: import('../scripts/build/nj-map.ts').NjMap
  export default map
}
