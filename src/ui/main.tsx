import { createRoot } from 'react-dom/client';

function App() {
  return <main><h1>GPU Memory Calculator</h1></main>;
}

createRoot(document.getElementById('root')!).render(<App />);
