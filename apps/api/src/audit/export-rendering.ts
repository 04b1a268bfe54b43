import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { exportRenderer, type ExportRenderer, type PageRenderer } from '@engram/gdpr';
import { CODEC_RESOURCES, type CodecResources } from '@engram/platform';

/**
 * How the API renders export pages: on its render threads (`ExportRenderThread`, the other core for
 * the decryption and the JSON), or in the request's thread when the thread's script is not built
 * (the tests running the TypeScript sources). Stopped with the application.
 */
@Injectable()
export class ExportRendering implements OnApplicationShutdown {
  private readonly renderer: ExportRenderer;

  constructor(@Inject(CODEC_RESOURCES) resources: CodecResources) {
    this.renderer = exportRenderer(resources.codec, resources.keysOf);
  }

  get render(): PageRenderer {
    return this.renderer.render;
  }

  onApplicationShutdown(): Promise<void> {
    return this.renderer.close();
  }
}
