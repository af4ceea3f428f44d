import { render } from 'preact';

render(<main>Retinue</main>, document.getElementById('app')!);
