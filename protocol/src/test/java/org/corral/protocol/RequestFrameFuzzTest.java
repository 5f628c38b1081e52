package org.corral.protocol;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;

/**
 * Frames a server reads, well-framed but with hostile contents: an envelope of any type around
 * any body, decoded as the server decodes a request. Only the codec's and protobuf's clean
 * refusals may come out (FrameCodecTest covers arbitrary bytes on the wire).
 */
class RequestFrameFuzzTest {

  @Property(tries = 400)
  void anyEnvelopeDecodesOrIsRefusedCleanly(@ForAll @IntRange(min = 0, max = 300) int type,
      @ForAll @Size(max = 2048) byte[] body, @ForAll boolean asEnvelope) throws IOException {
    byte[] payload = asEnvelope
        ? Envelope.newBuilder().setType(type).setBody(com.google.protobuf.ByteString.copyFrom(body))
            .build().toByteArray()
        : body;
    byte[] frame = ByteBuffer.allocate(6 + payload.length).putInt(2 + payload.length)
        .putShort((short) 1).put(payload).array();
    try {
      Envelope e = FrameCodec.read(new ByteArrayInputStream(frame), 1 << 16, t -> 1 << 16);
      if (e != null) {
        Request.parseFrom(e.getBody());
      }
    } catch (ProtocolException | InvalidProtocolBufferException expected) {
      // refused with an error: what hostile input should get
    }
  }
}
