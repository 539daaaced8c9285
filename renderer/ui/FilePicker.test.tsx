import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { FilePicker } from './FilePicker.tsx';
import type { FilesPickerProps } from './FilePicker.tsx';

afterEach(cleanup);

const fileOf = (name: string, bytes: number) => new File(['x'.repeat(bytes)], name);

function FilesHarness(props: Partial<FilesPickerProps>) {
  const [files, setFiles] = useState<File[]>([]);
  return <FilePicker label="Ficheros FIE" files={files} onFilesChange={setFiles} {...props} />;
}

const zone = () => screen.getByText(/Arrastra aquí tus archivos/).closest('div') as HTMLElement;
const drop = (...files: File[]) => fireEvent.drop(zone(), { dataTransfer: { files } });

describe('FilePicker (files)', () => {
  it('takes dropped files and lists them with their size', () => {
    render(<FilesHarness />);
    drop(fileOf('nominas.pdf', 1500), fileOf('fie.txt', 20));
    expect(screen.getByText('2 archivos seleccionados')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Archivos seleccionados' });
    expect(within(list).getByText('nominas.pdf')).toBeTruthy();
    expect(within(list).getByText('1,5 kB')).toBeTruthy();
  });

  it('takes files from the file dialog too', () => {
    render(<FilesHarness />);
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [fileOf('altas.xlsx', 10)] } });
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
  });

  it('refuses files of types that are not allowed, and says which', () => {
    render(<FilesHarness />);
    drop(fileOf('virus.exe', 10), fileOf('ok.csv', 10));
    expect(screen.getByRole('alert').textContent).toBe('No se han añadido estos archivos porque su tipo no está permitido: virus.exe.');
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
  });

  it('shows the size-exceeded error with the actual and limit sizes and keeps the previous files', () => {
    const onSizeExceeded = vi.fn();
    render(<FilesHarness maxSize={2000} onSizeExceeded={onSizeExceeded} />);
    drop(fileOf('a.pdf', 1500));
    drop(fileOf('b.pdf', 1500));
    expect(screen.getByRole('alert').textContent).toBe('Los archivos ocupan 3 kB y el máximo permitido es 2 kB.');
    expect(onSizeExceeded).toHaveBeenCalledWith(expect.objectContaining({ code: 'filesizeexceeded', actualBytes: 3000, limitBytes: 2000 }));
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
  });

  it('does not limit the size inside the desktop app', () => {
    render(<FilesHarness maxSize={10} embedded />);
    drop(fileOf('grande.pdf', 500));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
  });

  it('removes a file from the list', () => {
    render(<FilesHarness />);
    drop(fileOf('a.pdf', 1), fileOf('b.pdf', 1));
    fireEvent.click(screen.getByRole('button', { name: 'Quitar a.pdf' }));
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
    expect(screen.queryByText('a.pdf')).toBeNull();
  });

  it('keeps only one file when multiple is off', () => {
    render(<FilesHarness multiple={false} />);
    drop(fileOf('a.pdf', 1), fileOf('b.pdf', 1));
    expect(screen.getByText('1 archivo seleccionado')).toBeTruthy();
  });
});

describe('FilePicker (folder)', () => {
  it('is a labelled folder path input', () => {
    const onFolderPathChange = vi.fn();
    render(<FilePicker mode="folder" label="Carpeta de SILTRA" folderPath="" onFolderPathChange={onFolderPathChange} />);
    screen.getByRole('group', { name: 'Carpeta de SILTRA' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Ruta de la carpeta' }), { target: { value: 'C:\\SILTRA' } });
    expect(onFolderPathChange).toHaveBeenCalledWith('C:\\SILTRA');
  });
});
